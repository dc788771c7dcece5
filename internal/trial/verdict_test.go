package trial

import (
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/load/record"
)

func TestJudgeOrder(t *testing.T) {
	slo, _ := ParseSLO("p99<=10ms,start<=5s")
	slow := &record.Report{Requests: 10, Latencies: record.Latencies{P99: time.Second}}
	cases := []struct {
		name  string
		rd    readiness
		died  bool
		exit  Exit
		stall string
		load  *record.Report
		kind  Kind
		text  string
	}{
		{"oom under load beats slo", ready, true, Exit{Code: -1, Signal: "SIGKILL", OOMKilled: true}, "", slow, KindOOMKilled, "OOM killer under load at the 64Mi limit"},
		{"exit before ready", readyDied, true, Exit{Code: 3}, "", nil, KindExited, "exited with code 3 before it was ready"},
		{"signal", ready, true, Exit{Code: -1, Signal: "SIGSEGV"}, "", nil, KindExited, "killed by signal SIGSEGV during the trial"},
		{"not ready", readyTimedOut, false, Exit{}, "", nil, KindNotReady, "no 2xx answer from http://x/h within 1m30s"},
		{"slo", ready, false, Exit{}, "", slow, KindSLO, "p99 latency 1s is over the 10ms limit"},
		{"stall before ready beats not-ready", readyStalled, false, Exit{}, "memory usage was pinned at the 64Mi limit for 5s and x", nil, KindMemoryStall, "memory stall before it was ready: memory usage was pinned at the 64Mi limit"},
		{"stall under load beats slo", ready, false, Exit{}, "pinned", slow, KindMemoryStall, "memory stall under load: pinned; it was stopped"},
		{"oom kill beats stall", ready, true, Exit{Code: -1, Signal: "SIGKILL", OOMKilled: true}, "pinned", slow, KindOOMKilled, "OOM killer"},
		{"ok", ready, false, Exit{}, "", &record.Report{Requests: 1}, "", ""},
	}
	for _, c := range cases {
		r := &Result{Spec: Spec{MemoryBytes: 64 << 20}, Load: c.load, StartSeconds: 1}
		judge(r, slo, outcome{rd: c.rd, died: c.died, exit: c.exit, stall: c.stall, readyURL: "http://x/h", readyTimeout: 90 * time.Second})
		if r.Kind != c.kind || (c.text == "") != (len(r.Failed) == 0) || (c.text != "" && !strings.Contains(r.Failed[0], c.text)) {
			t.Errorf("%s: %s %s %q", c.name, r.Verdict, r.Kind, r.Failed)
		}
		if (c.kind == "") != (r.Verdict == OK) || r.Failed == nil {
			t.Errorf("%s: verdict %s failed %v", c.name, r.Verdict, r.Failed)
		}
		if c.died && (r.ExitCode == nil || *r.ExitCode != c.exit.Code) {
			t.Errorf("%s: exit code %v", c.name, r.ExitCode)
		}
	}
}

func TestScenarioVarsPrecedence(t *testing.T) {
	a := &app.App{Vars: map[string]string{"files": "200", "workers": "20"}}
	v := scenarioVars(a, Spec{Vars: map[string]string{"files": "5"}, Rate: 12.5}, 8080, 0)
	if v["files"] != "5" || v["workers"] != "20" || v["port"] != "8080" || v["rate"] != "12.5" {
		t.Errorf("%v", v)
	}
	if _, ok := v["management_port"]; ok {
		t.Error("management_port set for an app without one")
	}
	if v := scenarioVars(a, Spec{}, 1, 9001); v["management_port"] != "9001" {
		t.Errorf("management port: %v", v)
	}
	if _, ok := scenarioVars(a, Spec{}, 1, 0)["rate"]; ok {
		t.Error("rate set without --rate: the scenario's own must stay")
	}
	if baseURL("http://127.0.0.1:9/actuator/health") != "http://127.0.0.1:9" {
		t.Error(baseURL("http://127.0.0.1:9/actuator/health"))
	}
}
