package tune

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

func TestTuneJSONKeys(t *testing.T) {
	a := footprintApp()
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), a)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(NewJSON(r, "/var/tune/filecache.profile.json"))
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
	if j["memory_bytes"] != float64(96*tmib) || j["cpus"] != 1.0 || j["verdict"] != Proven || j["trials"] != float64(r.Used()) {
		t.Errorf("memory_bytes %v cpus %v verdict %v trials %v", j["memory_bytes"], j["cpus"], j["verdict"], j["trials"])
	}
	opts, _ := j["options"].([]any)
	if len(opts) != len(r.PlanOptions)+len(r.Options) || opts[len(opts)-1] != "-Xshare:off" {
		t.Errorf("options %v; want the launcher's then the candidate's", opts)
	}
	for _, o := range opts {
		if _, ok := o.(string); !ok {
			t.Errorf("option %v is not a string", o)
		}
	}
	if p, _ := j["profile"].(map[string]any); p["liveHeapBytes"] != float64(20*tmib) {
		t.Errorf("profile %v", j["profile"])
	}
	if s, _ := j["soak"].(map[string]any); s["verdict"] != "OK" {
		t.Errorf("soak %v", j["soak"])
	}
	front, _ := j["front"].([]any)
	if len(front) != len(r.Front) || len(front) < 2 {
		t.Fatalf("front %v; want %d points (a trade-off of at least two)", front, len(r.Front))
	}
	for _, f := range front {
		p := f.(map[string]any)
		for _, k := range []string{"memory_bytes", "options", "p99_ns", "start_seconds", "verdict"} {
			if _, ok := p[k]; !ok {
				t.Errorf("front point %v lacks %q", p, k)
			}
		}
		if p["verdict"] != "OK" || p["p99_ns"].(float64) <= 0 {
			t.Errorf("front point %v", p)
		}
	}
}

func TestTuneJSONNoAnswer(t *testing.T) {
	a := footprintApp()
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 10), &koProfile{a})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(NewJSON(r, ""))
	var j map[string]any
	json.Unmarshal(b, &j)
	if j["verdict"] != None || j["soak"].(map[string]any)["verdict"] != "not run" {
		t.Errorf("%s", b)
	}
	if f, ok := j["front"].([]any); !ok || len(f) != 0 {
		t.Errorf("front %v; want an empty list", j["front"])
	}
	if o, ok := j["options"].([]any); !ok || len(o) != 0 {
		t.Errorf("options %v; want an empty list", j["options"])
	}
}

func TestTuneForms(t *testing.T) {
	r := &Result{Goal: plan.Footprint, CPUs: 0.5, MemoryBytes: 1128 * tmib, Verdict: Proven,
		Options: []string{"-XX:+UseSerialGC", "-XX:SharedArchiveFile=/tmp/a b.jsa"}, PlanOptions: []string{"-Xmx64m"}}
	f := r.Forms("/p/prof.json")
	if f.Exec != "jvmfit exec --goal footprint --profile /p/prof.json -- java -XX:+UseSerialGC '-XX:SharedArchiveFile=/tmp/a b.jsa' ..." {
		t.Errorf("exec form %q", f.Exec)
	}
	if f.JavaToolOptions != "JAVA_TOOL_OPTIONS='-Xmx64m -XX:+UseSerialGC -XX:SharedArchiveFile=/tmp/a b.jsa'" {
		t.Errorf("JAVA_TOOL_OPTIONS form %q", f.JavaToolOptions)
	}
	want := "resources:\n  requests:\n    memory: \"1128Mi\"\n    cpu: \"500m\"\n  limits:\n    memory: \"1128Mi\"\n    cpu: \"500m\"\n"
	if f.Kubernetes != want {
		t.Errorf("kubernetes form:\n%s\nwant:\n%s", f.Kubernetes, want)
	}
	r.CPUs = 2
	if !strings.Contains(r.Forms("").Kubernetes, `cpu: "2"`) || !strings.Contains(r.Forms("").Exec, "--profile PROFILE.json") {
		t.Errorf("forms %+v", r.Forms(""))
	}
}

func TestTuneMarkdown(t *testing.T) {
	a := footprintApp()
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), a)
	if err != nil {
		t.Fatal(err)
	}
	md := r.Markdown("prof.json")
	for _, s := range []string{"96Mi, 1 CPU, candidate `serial-c1-noshare`: **proven**", "### Pareto front", "| 96Mi | serial-c1-noshare |",
		"JAVA_TOOL_OPTIONS=", "jvmfit exec --goal footprint --profile prof.json", "resources:", "| parallel-tiered |", "dominated by"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	t.Log("\n" + md)
}
