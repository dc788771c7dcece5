package kube

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const mi = 1 << 20

func testApp() *app.App {
	return &app.App{Name: "filecache", Port: 0, Ready: "http://127.0.0.1:${port}/actuator/health", ReadyTimeout: 90 * time.Second,
		Args: []string{"--server.port=${port}"}, Env: map[string]string{"TZ": "UTC"}, SLO: "p99<=200ms", Rate: 200,
		Scenario: "testdata/scenario.yaml"}
}

// testSpec is a prepared spec: what Session.Check hands the runner.
func testSpec(mem int64) trial.Spec {
	return trial.Spec{App: "app.yaml", AppName: "filecache", Java: "/usr/bin/java", JDKVersion: 17, JVM: "jvmfit",
		JVMOptions: []string{"-Xmx96m", "-XX:MaxMetaspaceSize=64m"}, JVMEnv: map[string]string{"MALLOC_ARENA_MAX": "2"},
		MemoryBytes: mem, CPUs: 1.5, Rate: 200, SLO: "p99<=200ms", AppDigest: "d1"}
}

func testOptions() JobOptions {
	return JobOptions{Namespace: "trials", Image: "filecache:17", AgentImage: "jvmfit:test", Owner: "0wner0wner00", Session: "5e55104d",
		Process: "b00t-1d_4026531836_4242_99"}
}

// okResult is the agent's result for spec.
func okResult(spec trial.Spec) *trial.Result {
	return &trial.Result{Spec: spec, Key: spec.Key(), Verdict: trial.OK, StartSeconds: 3.2, MemoryPeakBytes: 180 * mi,
		WorkingSetPeakBytes: 170 * mi, Load: &record.Report{Rate: 200, Throughput: 199, Success: 1}}
}

func mustMessage(t *testing.T, m Message) string {
	t.Helper()
	s, err := EncodeMessage(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
