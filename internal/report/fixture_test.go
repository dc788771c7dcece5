package report

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The fixture database holds one experiment of each kind, made of
// synthetic trials whose figures follow simple rules (a capacity per CPU
// count, a heap share per option mode), so the expected tables can be
// checked by reading them.

const mb = int64(1) << 20

var fixtureStart = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

type synth struct {
	app     string
	cpus    float64
	memMiB  int64
	jvm     string
	jdk     int
	rate    float64
	thr     float64
	success float64
	p50     time.Duration
	p99     time.Duration
	start   float64
	heapMiB int64
	kind    trial.Kind // "" = judged by the SLO below
	samples int
	nmt     bool
}

// slo mirrors a descriptor's "p99<=200ms,success>=0.999,throughput>=0.95*rate".
func (s synth) result(n int) *trial.Result {
	t0 := fixtureStart.Add(time.Duration(n) * time.Minute)
	r := &trial.Result{
		Spec: trial.Spec{App: "workloads/" + s.app + "/app.yaml", AppName: s.app, Java: "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
			JDKVersion: s.jdk, JVM: s.jvm, MemoryBytes: s.memMiB * mb, CPUs: s.cpus, Rate: s.rate,
			Warmup: 10 * time.Second, Duration: 30 * time.Second, SLO: "p99<=200ms,success>=0.999,throughput>=0.95*rate"},
		Env:       trial.Env{Kernel: "6.18.0", CPUModel: "Fixture CPU @ 2.0GHz", HostCPUs: 2, JDK: fmt.Sprintf("OpenJDK %d.0.1", s.jdk), Jvmfit: "test", Cgroup: "v1"},
		StartedAt: t0, EndedAt: t0.Add(50 * time.Second), Verdict: trial.OK, Failed: []string{},
		StartSeconds: s.start, HeapMaxBytes: s.heapMiB * mb,
	}
	if s.jvm != "default" {
		r.Spec.JVMOptions = []string{"-XX:+UseSerialGC", fmt.Sprintf("-Xmx%dm", s.heapMiB)}
	}
	switch s.kind {
	case trial.KindOOMKilled, trial.KindJavaOOM, trial.KindNotReady, trial.KindExited:
		r.Verdict, r.Kind = trial.KO, s.kind
		r.Failed = []string{string(s.kind)}
		r.MemoryPeakBytes = s.memMiB * mb
		s.addSeries(r, s.memMiB*mb)
		return r
	}
	r.Load = &record.Report{Phase: "measure", Model: "open", Requests: int64(s.rate * 30), Rate: s.rate, TargetRate: s.rate,
		Throughput: s.thr, Success: s.success, Duration: 30 * time.Second, StatusCodes: map[string]int64{"200": int64(s.thr * 30)},
		Errors: []string{}, Latencies: record.Latencies{P50: s.p50, P99: s.p99, Max: 2 * s.p99}}
	r.Phases = []*record.Report{{Phase: "upload", Model: "closed", Requests: 200, Duration: 12 * time.Second, StatusCodes: map[string]int64{}, Errors: []string{}}, r.Load}
	peak := s.memMiB * mb * 7 / 10
	if s.memMiB == 0 {
		peak = 300 * mb
	}
	r.MemoryPeakBytes = peak
	r.Summary = trial.Summary{CgroupPeak: peak, RSSPeak: peak * 9 / 10, HeapUsedPeak: s.heapMiB * mb / 2, HeapCommPeak: s.heapMiB * mb * 3 / 4,
		ThreadsPeak: 30, FDsPeak: 60, GCCount: 40, GCTime: 300 * time.Millisecond, GCShare: 0.006}
	if s.p99 > 200*time.Millisecond {
		r.Failed = append(r.Failed, fmt.Sprintf("p99 %s > 200ms", s.p99.Round(time.Millisecond)))
	}
	if s.success < 0.999 {
		r.Failed = append(r.Failed, fmt.Sprintf("success %.3f < 0.999", s.success))
	}
	if s.thr < 0.95*s.rate {
		r.Failed = append(r.Failed, fmt.Sprintf("throughput %.0f < %.0f", s.thr, 0.95*s.rate))
	}
	if len(r.Failed) > 0 {
		r.Verdict, r.Kind = trial.KO, trial.KindSLO
	}
	s.addSeries(r, peak)
	if s.nmt {
		r.NMT = map[string]trial.NMT{
			"Java Heap": {Reserved: s.heapMiB * mb, Committed: s.heapMiB * mb * 3 / 4},
			"Class":     {Reserved: 1024 * mb, Committed: 14 * mb}, "Thread": {Reserved: 30 * mb, Committed: 3 * mb},
			"Code": {Reserved: 240 * mb, Committed: 9 * mb}, "GC": {Reserved: 8 * mb, Committed: 2 * mb},
			"Internal": {Reserved: mb, Committed: mb},
		}
	}
	return r
}

// addSeries gives the trial s.samples samples 250 ms apart rising to peak:
// cgroup usage, RSS, a working set below usage (inactive page cache left
// out) and anonymous memory below RSS; with nmt, an NMT reading every 8th
// sample (2 s) with a compiler burst 2-6 s after start, as measured on
// filecache. The peaks go into the result as the probe would put them.
func (s synth) addSeries(r *trial.Result, peak int64) {
	for i := 0; i < s.samples; i++ {
		t := float64(i) / 4
		use := int64(float64(peak) * (0.5 + 0.5*math.Min(1, t/20)))
		rss := int64(float64(peak) * 0.85 * (0.5 + 0.5*math.Min(1, t/25)))
		smp := probe.Sample{At: time.Duration(t * float64(time.Second)), CgroupUsage: use, RSS: rss,
			WorkingSet: use * 8 / 10, RSSAnon: rss * 9 / 10,
			HeapUsed: s.heapMiB * mb / 4 * int64(1+i%4), HeapCommitted: s.heapMiB * mb * 3 / 4, Threads: 30}
		if s.nmt && i%8 == 0 {
			smp.NMT = s.nmtReading(t)
		}
		r.Series = append(r.Series, smp)
		r.WorkingSetPeakBytes = max(r.WorkingSetPeakBytes, smp.WorkingSet)
		r.Summary.WorkingSetPeak = r.WorkingSetPeakBytes
		for k, v := range smp.NMT {
			if r.Summary.NMTPeak == nil {
				r.Summary.NMTPeak = map[string]int64{}
			}
			r.Summary.NMTPeak[k] = max(r.Summary.NMTPeak[k], v)
		}
	}
}

// nmtReading is committed bytes per NMT category t seconds after start.
func (s synth) nmtReading(t float64) map[string]int64 {
	burst := int64(0)
	if t >= 2 && t <= 6 {
		burst = 13 * mb
	}
	m := map[string]int64{
		"Java Heap": s.heapMiB * mb * 3 / 4, "Class": int64(8+min(t, 10)*0.6) * mb, "Thread": 3 * mb,
		"Code": int64(4+min(t, 20)*0.3) * mb, "GC": 2 * mb, "Compiler": mb/2 + burst, "Arena Chunk": mb/4 + burst/2,
		"Symbol": 5 * mb, "Internal": mb / 2, "Other": mb / 4, "Logging": 1 << 10,
	}
	var total int64
	for _, v := range m {
		total += v
	}
	m["Total"] = total
	return m
}

// sweepPoint models a service that keeps up to a capacity per CPU count,
// then queues (latency grows) and finally drops requests (seed 002's shape).
func sweepPoint(cpus, rate float64) synth {
	capacity := 380.0
	if cpus >= 2 {
		capacity = 520
	}
	s := synth{app: "filecache", cpus: cpus, memMiB: 512, jvm: "default", jdk: 17, rate: rate, start: 4.2, heapMiB: 128, success: 1}
	switch {
	case rate <= capacity*0.9:
		s.thr, s.p50, s.p99 = rate, 4*time.Millisecond, 18*time.Millisecond
	case rate <= capacity:
		s.thr, s.p50, s.p99 = rate*0.99, 9*time.Millisecond, 95*time.Millisecond
	case rate <= capacity+100:
		s.thr, s.p50, s.p99 = capacity*0.97, 900*time.Millisecond, 2400*time.Millisecond
	default:
		s.thr, s.success, s.p50, s.p99 = capacity*0.6, 0.9, 4*time.Second, 12*time.Second
	}
	return s
}

func minmemTrials() []synth {
	var out []synth
	add := func(jvm string, memMiB int64, kind trial.Kind, heapShare float64, start float64) {
		s := synth{app: "filecache", cpus: 1, memMiB: memMiB, jvm: jvm, jdk: 17, rate: 100, thr: 99.8, success: 1,
			p50: 3 * time.Millisecond, p99: 40 * time.Millisecond, start: start, heapMiB: int64(float64(memMiB) * heapShare), kind: kind}
		out = append(out, s)
	}
	add("default", 128, trial.KindOOMKilled, 0.5, 0)
	add("default", 256, "", 0.5, 7.1)
	add("default", 192, trial.KindNotReady, 0.5, 0)
	add("default", 224, "", 0.5, 7.4)
	add("default", 208, trial.KindOOMKilled, 0.5, 0)
	add("default", 216, "", 0.5, 7.9)
	add("jvmfit", 128, "", 0.3, 3.6)
	add("jvmfit", 96, trial.KindOOMKilled, 0.3, 0)
	add("jvmfit", 112, "", 0.3, 3.9)
	add("jvmfit", 104, "", 0.3, 4.4)
	// a slow start under the tightest OK limit: the SLO catches the tail
	s := out[len(out)-1]
	s.memMiB, s.heapMiB, s.p99 = 100, 30, 350*time.Millisecond
	return append(out, s)
}

// compareTrials carry seed 001's published figures (40 MB working set,
// KB converted to bytes) so the table can be checked against the article.
func compareTrials() []*trial.Result {
	type fig struct {
		set                         string
		upload, exec                float64
		gc                          float64
		liveAvg, livePeak, phys, pp int64
	}
	figs := []fig{
		{"set:pardef", 309, 4496, 10.259, 56751, 85179, 138573, 155136},
		{"set:serdef", 301, 4413, 16.766, 52645, 72961, 94072, 102660},
		{"set:seropt", 291, 4436, 21.422, 43079, 50755, 68499, 71576},
		{"set:paropt", 299, 4440, 33.937, 41225, 48741, 58471, 60672},
	}
	var out []*trial.Result
	for i, f := range figs {
		s := synth{app: "filecache", cpus: 1, memMiB: 512, jvm: f.set, jdk: 17, rate: 80, thr: 80, success: 1,
			p50: 5 * time.Millisecond, p99: 30 * time.Millisecond, start: 5.5, heapMiB: 256, samples: 160 + 40*i, nmt: i == 0 || i == 3}
		r := s.result(100 + i)
		r.Phases[0].Duration = time.Duration(f.upload * float64(time.Second))
		r.Load.Duration = time.Duration(f.exec * float64(time.Second))
		total := f.upload + f.exec
		r.Summary.GCTime = time.Duration(f.gc * float64(time.Second))
		r.Summary.GCShare = f.gc / total
		r.Summary.LiveAvg, r.Summary.LivePeak = f.liveAvg<<10, f.livePeak<<10
		r.Summary.MappedAvg, r.Summary.MappedPeak = f.phys<<10, f.pp<<10
		r.Summary.Live10Avg, r.Summary.Mapped10Avg = 40*mb, f.phys<<10*9/10
		out = append(out, r)
	}
	return out
}

// fixtureDB writes the fixture database and returns its path.
func fixtureDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fixture.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	save := func(exp int64, r *trial.Result) {
		r.Key = r.Spec.Key()
		if _, err := s.SaveTrial(exp, r); err != nil {
			t.Fatal(err)
		}
	}
	mm, _ := s.NewExperiment("minmem-filecache", store.KindMinMem, map[string]any{"cpus": 1, "jvm": "default,jvmfit"})
	for i, sy := range minmemTrials() {
		save(mm, sy.result(i))
	}
	s.EndExperiment(mm)
	sw, _ := s.NewExperiment("sweep-filecache", store.KindSweep, map[string]any{"cpus": "1,2", "rate": "100..700/100"})
	n := 20
	for _, c := range []float64{1, 2} {
		for rate := 100.0; rate <= 700; rate += 100 {
			sy := sweepPoint(c, rate)
			if rate == 300 {
				sy.samples = 120
			}
			save(sw, sy.result(n))
			n++
		}
	}
	s.EndExperiment(sw)
	cp, _ := s.NewExperiment("compare-seed001", store.KindCompare, map[string]any{"sets": "seed001"})
	for _, r := range compareTrials() {
		save(cp, r)
	}
	// left without EndExperiment: an interrupted experiment still reports
	st, _ := s.NewExperiment("minmem-styles", store.KindMinMem, map[string]any{"cpus": 1, "jvm": "default,jvmfit,runjava,paketo,ubi", "nmt": true})
	for i, sy := range styleTrials() {
		save(st, sy.result(200+i))
	}
	s.EndExperiment(st)
	return path
}

// styleTrials are a minmem over five modes (issue 14's side by side), every
// trial run with --nmt and sampled: default passes from 184Mi, jvmfit from
// 104Mi, runjava from 144Mi, ubi from 224Mi (a lucky pass at 208Mi below a
// failure at 216Mi does not count), and paketo never (its metaspace cap:
// back-to-back full GCs). The trials at each mode's minimum OK limit have
// their own start and p99, for the chart's labels.
func styleTrials() []synth {
	var out []synth
	add := func(jvm string, memMiB int64, kind trial.Kind, start float64, p99 time.Duration) {
		out = append(out, synth{app: "filecache", cpus: 1, memMiB: memMiB, jvm: jvm, jdk: 17, rate: 100, thr: 99.9, success: 1,
			p50: 4 * time.Millisecond, p99: p99, start: start, heapMiB: memMiB / 2, kind: kind, samples: 120, nmt: true})
	}
	ms := time.Millisecond
	add("default", 160, trial.KindOOMKilled, 0, 0)
	add("default", 192, "", 7.2, 45*ms)
	add("default", 176, trial.KindOOMKilled, 0, 0)
	add("default", 184, "", 7.5, 52*ms)
	add("jvmfit", 96, trial.KindOOMKilled, 0, 0)
	add("jvmfit", 112, "", 3.9, 36*ms)
	add("jvmfit", 104, "", 4.1, 38*ms)
	add("runjava", 128, trial.KindJavaOOM, 0, 0)
	add("runjava", 160, "", 5.5, 60*ms)
	add("runjava", 144, "", 5.8, 70*ms)
	add("paketo", 512, "", 6.1, 900*ms)
	add("paketo", 1024, "", 6.0, 850*ms)
	add("ubi", 192, trial.KindOOMKilled, 0, 0)
	add("ubi", 256, "", 6.4, 44*ms)
	add("ubi", 208, "", 7.0, 51*ms)
	add("ubi", 216, trial.KindOOMKilled, 0, 0)
	add("ubi", 224, "", 6.9, 48*ms)
	return out
}

// loadInput reads an experiment back the way `jvmfit report` does, with
// fixed times so golden files do not depend on when the test ran.
func loadInput(t *testing.T, path, ref string) Input {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e, err := s.Experiment(ref)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := s.Trials(store.Filter{ExperimentID: e.ID})
	if err != nil {
		t.Fatal(err)
	}
	m := MetaOf(e)
	m.Created = fixtureStart
	if !m.Ended.IsZero() {
		m.Ended = fixtureStart.Add(90 * time.Minute)
	}
	return Input{Meta: m, Trials: trials}
}
