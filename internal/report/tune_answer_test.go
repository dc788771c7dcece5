package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// tuneResult is a finished footprint tune as tune.Run leaves it: the
// profile, two search trials on the front (the smaller chosen), one KO,
// and the soak that proved the chosen point.
func tuneResult() *tune.Result {
	prof := &plan.Profile{Version: 1, LiveHeapBytes: 20 * mi, MetaspaceUsedBytes: 30 * mi}
	search := func(cand string, m int64, p99 time.Duration, v trial.Verdict, id int64) tune.Trial {
		return tune.Trial{Point: tune.Point{Purpose: tune.PurposeSearch, MemoryBytes: m, CPUs: 1, Candidate: cand, Options: []string{"-XX:+UseSerialGC", "-Xshare:off"}},
			Outcome: tune.Outcome{Verdict: v, P99: p99, StartSeconds: 4.5, PeakBytes: m - 8*mi, TrialID: id}, PlanOptions: []string{"-Xmx48m"}}
	}
	soak := search("serial-c1-noshare", 96*mi, 9*time.Millisecond, trial.OK, 9)
	soak.Point.Purpose, soak.Point.Soak = tune.PurposeSoak, time.Minute
	r := &tune.Result{Goal: plan.Footprint, CPUs: 1, Budget: 40, Profile: prof, Verdict: tune.Proven, Chosen: 2,
		MemoryBytes: 96 * mi, Candidate: "serial-c1-noshare", Options: []string{"-XX:+UseSerialGC", "-Xshare:off"}, PlanOptions: []string{"-Xmx48m"},
		Trials: []tune.Trial{{Point: tune.Point{Purpose: tune.PurposeProfile, MemoryBytes: 1024 * mi, CPUs: 1}, Outcome: tune.Outcome{Verdict: trial.OK, Profile: prof}},
			search("serial-c1-noshare", 88*mi, 0, trial.KO, 2), search("serial-c1-noshare", 96*mi, 9*time.Millisecond, trial.OK, 3),
			search("serial-tiered", 128*mi, 5*time.Millisecond, trial.OK, 4), soak},
		Candidates: []tune.CandidateResult{{Candidate: tune.Candidate{Name: "serial-c1-noshare"}, FloorBytes: 80 * mi, MinOKBytes: 96 * mi, MaxKOBytes: 88 * mi, Trials: 2, Converged: true},
			{Candidate: tune.Candidate{Name: "parallel-tiered"}, FloorBytes: 120 * mi, Dropped: "dominated by serial-tiered"}},
		Front: []int{2, 3}}
	r.Soaks = []tune.Trial{soak}
	r.Notes = []string{"the answer is 96Mi, 1 grid step(s) above the chosen search point's 88Mi"}
	return r
}

func TestTuneJSONKeys(t *testing.T) {
	r := tuneResult()
	b, err := json.Marshal(NewTuneJSON(r, "/var/tune/filecache.profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"memory_bytes", "cpus", "options", "profile", "verdict", "soak", "trials", "front"} {
		if _, ok := j[k]; !ok {
			t.Errorf("key %q missing from %s", k, b)
		}
	}
	if j["memory_bytes"] != float64(96*mi) || j["cpus"] != 1.0 || j["verdict"] != tune.Proven || j["trials"] != float64(r.Used()) {
		t.Errorf("memory_bytes %v cpus %v verdict %v trials %v", j["memory_bytes"], j["cpus"], j["verdict"], j["trials"])
	}
	if opts, _ := j["options"].([]any); len(opts) != 3 || opts[0] != "-Xmx48m" || opts[2] != "-Xshare:off" {
		t.Errorf("options %v; want the launcher's then the candidate's", opts)
	}
	if p, _ := j["profile"].(map[string]any); p["liveHeapBytes"] != float64(20*mi) {
		t.Errorf("profile %v", j["profile"])
	}
	if s, _ := j["soak"].(map[string]any); s["verdict"] != "OK" || s["trial_id"] != 9.0 {
		t.Errorf("soak %v", j["soak"])
	}
	front, _ := j["front"].([]any)
	if len(front) != 2 {
		t.Fatalf("front %v; want 2 points", front)
	}
	for _, f := range front {
		p := f.(map[string]any)
		for _, k := range []string{"memory_bytes", "options", "p99_ns", "start_seconds", "verdict"} {
			if _, ok := p[k]; !ok {
				t.Errorf("front point %v lacks %q", p, k)
			}
		}
	}
	if forms, _ := j["forms"].(map[string]any); !strings.HasPrefix(forms["exec"].(string), "jvmfit exec --goal footprint --profile /var/tune/filecache.profile.json -- java -XX:+UseSerialGC") {
		t.Errorf("forms %v", j["forms"])
	}
}

func TestTuneJSONNoAnswer(t *testing.T) {
	r := &tune.Result{Goal: plan.Footprint, CPUs: 1, Budget: 10, Chosen: -1, Verdict: tune.None}
	b, _ := json.Marshal(NewTuneJSON(r, ""))
	var j map[string]any
	json.Unmarshal(b, &j)
	if j["verdict"] != tune.None || j["soak"].(map[string]any)["verdict"] != "not run" {
		t.Errorf("%s", b)
	}
	if f, ok := j["front"].([]any); !ok || len(f) != 0 {
		t.Errorf("front %v; want an empty list", j["front"])
	}
	if o, ok := j["options"].([]any); !ok || len(o) != 0 {
		t.Errorf("options %v; want an empty list", j["options"])
	}
}

// The tune's own front is laid out as the report lays out the stored
// trials' front: one layout.
func TestTuneMarkdown(t *testing.T) {
	r := tuneResult()
	md := TuneMarkdown(r, "prof.json")
	for _, s := range []string{"96Mi, 1 CPU, candidate `serial-c1-noshare`: **proven**", "### Pareto front of the search trials", "| trial | limit | candidate | p99 |",
		"| #3 | 96Mi | serial-c1-noshare | 9.0ms | 4.5s | 0.0% | 88Mi | chosen |", "| #4 | 128Mi | serial-tiered |",
		"JAVA_TOOL_OPTIONS=", "jvmfit exec --goal footprint --profile prof.json", "resources:", "| parallel-tiered |", "dominated by", "Note: the answer is 96Mi"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	sum := TuneSummary(r, "prof.json")
	if sum.Headline != "96Mi, 1 CPU, serial-c1-noshare (proven)" || !strings.Contains(sum.Details, "| #3 | 96Mi |") {
		t.Errorf("summary %+v", sum)
	}
}

func TestTuneForms(t *testing.T) {
	r := &tune.Result{Goal: plan.Footprint, CPUs: 0.5, MemoryBytes: 1128 * mi, Verdict: tune.Proven,
		Options: []string{"-XX:+UseSerialGC", "-XX:SharedArchiveFile=/tmp/a b.jsa"}, PlanOptions: []string{"-Xmx64m"}}
	f := TuneForms(r, "/p/prof.json")
	if f.Exec != "jvmfit exec --goal footprint --profile /p/prof.json -- java -XX:+UseSerialGC '-XX:SharedArchiveFile=/tmp/a b.jsa' ..." {
		t.Errorf("exec form %q", f.Exec)
	}
	if f.JavaToolOptions != "JAVA_TOOL_OPTIONS='-Xmx64m -XX:+UseSerialGC -XX:SharedArchiveFile=/tmp/a b.jsa'" {
		t.Errorf("JAVA_TOOL_OPTIONS form %q", f.JavaToolOptions)
	}
	want := "resources:\n  requests:\n    memory: 1128Mi\n    cpu: \"500m\"\n  limits:\n    memory: 1128Mi\n    cpu: \"500m\"\n"
	if f.Kubernetes != want {
		t.Errorf("kubernetes form:\n%s\nwant:\n%s", f.Kubernetes, want)
	}
	r.CPUs = 2
	if !strings.Contains(TuneForms(r, "").Kubernetes, `cpu: "2"`) || !strings.Contains(TuneForms(r, "").Exec, "--profile PROFILE.json") {
		t.Errorf("forms %+v", TuneForms(r, ""))
	}
}
