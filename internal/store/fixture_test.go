package store

import (
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// fixtureResult builds a complete trial with n samples; i varies every
// figure so that rows cannot be mixed up unnoticed.
func fixtureResult(i, n int) *trial.Result {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	code := 137
	r := &trial.Result{
		Spec: trial.Spec{
			App: "workloads/filecache/app.yaml", AppName: "filecache",
			Java: "/usr/bin/java", JDKVersion: 17, JVM: "default",
			JVMOptions:  []string{"-XX:+UseSerialGC", fmt.Sprintf("-Xmx%dm", 64+i)},
			MemoryBytes: int64(256+8*i) << 20, CPUs: 1, Rate: float64(100 * (i + 1)),
			Warmup: 10 * time.Second, Duration: 30 * time.Second,
			Vars: map[string]string{"files": "50", "b": "x"}, SLO: "p99<=200ms", Repeat: i,
		},
		Env:       trial.Env{Kernel: "6.18.0", CPUModel: "Test CPU", HostCPUs: 2, JDK: "17.0.9 Eclipse", Jvmfit: "dev", Cgroup: "v1"},
		StartedAt: t0, EndedAt: t0.Add(45 * time.Second),
		Verdict: trial.OK, Failed: []string{},
		StartSeconds: 3.25 + float64(i), MemoryPeakBytes: int64(200+i) << 20, HeapMaxBytes: 126 << 20,
		Load: &record.Report{Phase: "measure", Model: "open", Requests: int64(3000 + i), Rate: 100, Throughput: 99.5,
			Success: 1, Duration: 30 * time.Second, StatusCodes: map[string]int64{"200": int64(3000 + i)}, Errors: []string{},
			Latencies: record.Latencies{P50: 2 * time.Millisecond, P99: time.Duration(10+i) * time.Millisecond}},
		Summary: trial.Summary{CgroupPeak: int64(200+i) << 20, RSSPeak: 180 << 20, LiveAvg: 40 << 20, GCCount: int64(i), GCTime: 120 * time.Millisecond, GCShare: 0.004},
		NMT:     map[string]trial.NMT{"Java Heap": {Reserved: 128 << 20, Committed: 64 << 20}, "Class": {Reserved: 1 << 30, Committed: 12 << 20}},
		Histograms: []trial.Histogram{
			{Phase: "measure", Name: "", Encoding: "hdr-v2-base64", Data: fmt.Sprintf("HISTFAAAA%d", i)},
			{Phase: "measure", Name: "download", Encoding: "hdr-v2-base64", Data: "HISTFAAAB"},
		},
	}
	if i%3 == 2 {
		r.Verdict, r.Kind, r.Failed = trial.KO, trial.KindOOMKilled, []string{"oom-killed at 258Mi"}
		r.ExitCode, r.ExitSignal, r.OutputTail = &code, "SIGKILL", "line1\nline2 </script>"
	}
	r.Phases = []*record.Report{{Phase: "warmup", Requests: 50, StatusCodes: map[string]int64{}, Errors: []string{}}, r.Load}
	for k := 0; k < n; k++ {
		r.Series = append(r.Series, probe.Sample{
			At: time.Duration(k) * 250 * time.Millisecond, CgroupUsage: int64(100+k) << 20, RSS: int64(90+k+i) << 20,
			HeapUsed: int64(k) << 18, HeapCommitted: 64 << 20, Threads: 20 + k%3, GCTime: time.Duration(k) * time.Millisecond,
		})
	}
	r.Key = r.Spec.Key()
	return r
}
