package report

import (
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const mi = size.MiB

func recommend(t *testing.T, cands []experiment.Candidate, opts ...string) *experiment.Recommendation {
	t.Helper()
	rec, err := experiment.Recommend(cands, func(string, string, int64, float64) ([]string, error) { return opts, nil })
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestRecommendationMarkdown(t *testing.T) {
	rec := recommend(t, []experiment.Candidate{
		{JVM: "default", CPUs: 1, MinOK: 208 * mi, Precision: 8 * mi, Edge: true, Throughput: 100},
		{JVM: "jvmfit", CPUs: 1, MinOK: 136 * mi, Precision: 8 * mi, Edge: true, Throughput: 99},
	}, "-XX:+UseSerialGC", "-Xmx72m")
	md := RecommendationMarkdown(rec)
	for _, want := range []string{"Memory limit: 160Mi", "jvmfit exec", "JAVA_TOOL_OPTIONS='-XX:+UseSerialGC -Xmx72m'", "memory: 160Mi", `cpu: "1"`} {
		if !strings.Contains(md, want) {
			t.Errorf("recommendation lacks %q:\n%s", want, md)
		}
	}
	rec = recommend(t, []experiment.Candidate{{JVM: "default", CPUs: 0.5, MinOK: 512 * mi}})
	if md := RecommendationMarkdown(rec); !strings.Contains(md, `cpu: "500m"`) || !strings.Contains(md, "JDK defaults passed") {
		t.Errorf("a default-mode answer must not tell users to add jvmfit's options:\n%s", md)
	}
}

// An option set's answer says how its options ran (on the java command
// line) and prints that entrypoint, not a jvmfit exec line it never tested.
// The margin and the rule behind it read as two different things.
func TestRecommendOptionSetAsTested(t *testing.T) {
	rec := recommend(t, []experiment.Candidate{{JVM: "set:B", CPUs: 1, MinOK: 104 * mi, Precision: 8 * mi, Edge: true}}, "-XX:+UseSerialGC", "-Xss512k")
	md := RecommendationMarkdown(rec)
	for _, want := range []string{
		"`--jvm set:B` put them on the java command line",
		"not tested through `jvmfit exec`",
		`ENTRYPOINT ["java", "-XX:+UseSerialGC", "-Xss512k", "-jar", "/app.jar"]`,
		"Memory limit: 128Mi** = minimum OK 104Mi + margin 24Mi (margin rule: at least 16 MiB",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("recommendation lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "/jvmfit") || strings.Contains(md, "margin: 16") {
		t.Errorf("recommendation offers an untested jvmfit exec line or a second margin:\n%s", md)
	}
}

// The proof in words: proven, raised once, never held (experiment's
// TestSoakProvesOrRaises makes these soaks).
func TestSoakText(t *testing.T) {
	ok := experiment.SoakRun{TrialID: 3, MemoryBytes: 144 * mi, Duration: time.Minute, Verdict: trial.OK, MemoryPeakBytes: 120 * mi}
	ko := func(m int64) experiment.SoakRun {
		return experiment.SoakRun{MemoryBytes: m, Duration: time.Minute, Verdict: trial.KO, Failed: []string{"oom-killed"}}
	}
	for _, c := range []struct {
		soak   []experiment.SoakRun
		tested bool
		text   string
	}{
		{[]experiment.SoakRun{ok}, true, "Proven by a soak**: 1m0s at 144Mi, OK (trial #3: "},
		{[]experiment.SoakRun{ko(128 * mi), ok}, true, "it failed first at 128Mi (oom-killed)"},
		{[]experiment.SoakRun{ko(128 * mi), ko(144 * mi), ko(160 * mi)}, false, "Not proven**: a 1m0s soak failed at 128Mi (oom-killed), 144Mi (oom-killed), 160Mi (oom-killed)"},
	} {
		rec := &experiment.Recommendation{JVM: "jvmfit", CPUs: 1, MemoryBytes: 144 * mi, Soak: c.soak, Tested: c.tested}
		if md := RecommendationMarkdown(rec); !strings.Contains(md, c.text) {
			t.Errorf("recommendation lacks %q:\n%s", c.text, md)
		}
	}
}

// A jvmfit mode's entrypoint is jvmfit exec with the profile it planned
// with; the soak through exec is said to be its proof.
func TestExecEntrypointNamesProfileAndProof(t *testing.T) {
	rec := &experiment.Recommendation{JVM: "jvmfit", CPUs: 1, MemoryBytes: 128 * mi, Profile: "/p/profile.json", ViaExec: true, Tested: true,
		Soak: []experiment.SoakRun{{MemoryBytes: 128 * mi, Duration: time.Minute, Verdict: trial.OK}}}
	md := RecommendationMarkdown(rec)
	if !strings.Contains(md, `"--profile", "/p/profile.json"`) || !strings.Contains(md, "The soak ran the app through `jvmfit exec`") {
		t.Errorf("the exec entrypoint lacks the profile or the proof:\n%s", md)
	}
}

// Without a soak the answer is labelled not proven, with the jvmfit run
// that proves it as recommended: a jvmfit mode through jvmfit exec
// (--via-exec) with its profile, an option set as it ran.
func TestNotProvenNamesTheProof(t *testing.T) {
	for _, c := range []struct {
		rec       experiment.Recommendation
		want, not []string
	}{
		{experiment.Recommendation{JVM: "jvmfit", CPUs: 1, MemoryBytes: 144 * mi, App: "a.yaml", Rate: 100, Profile: "/p/profile.json"},
			[]string{"--jvm jvmfit --via-exec --profile /p/profile.json", "--memory 144Mi --cpus 1", "--rate 100", "--duration 1m",
				"no trial ran the app through `jvmfit exec`"}, nil},
		{experiment.Recommendation{JVM: "set:A", CPUs: 1, MemoryBytes: 144 * mi, App: "a.yaml", Rate: 100, Java: "/jdk/bin/java"},
			[]string{"--jvm set:A --java /jdk/bin/java --rate 100"}, []string{"--via-exec", "--profile", "jvmfit exec`"}},
	} {
		md := RecommendationMarkdown(&c.rec)
		if !strings.Contains(md, "**Not proven**") || !strings.Contains(md, "jvmfit run --app a.yaml") {
			t.Fatalf("%s: not labelled not proven with its command:\n%s", c.rec.JVM, md)
		}
		for _, w := range c.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: want %q in:\n%s", c.rec.JVM, w, md)
			}
		}
		proof := md[strings.Index(md, "**Not proven**"):]
		proof = proof[:strings.Index(proof, "- **CPUs")]
		for _, w := range c.not {
			if strings.Contains(proof, w) {
				t.Errorf("%s: %q in the proof of an option set:\n%s", c.rec.JVM, w, proof)
			}
		}
	}
}

// What the unproven answer prints, for a reader of the test log.
func TestNotProvenText(t *testing.T) {
	rec := &experiment.Recommendation{JVM: "jvmfit:footprint", CPUs: 0.5, MemoryBytes: 144 * mi, MinOKBytes: 128 * mi, App: "workloads/filecache/app.yaml",
		Rate: 100, Profile: "/tmp/p rofile.json", Java: "/jdk/bin/java"}
	got := unprovenText(rec)
	want := "- **Not proven**: no trial ran at this limit, and no trial ran the app through `jvmfit exec` as recommended below (the trials put the launcher's options on the java command line). Prove it, as recommended, with a soak:\n\n" +
		"  ```sh\n  jvmfit run --app workloads/filecache/app.yaml --memory 144Mi --cpus 0.5 --jvm jvmfit:footprint --via-exec --profile '/tmp/p rofile.json' --java /jdk/bin/java --rate 100 --duration 1m\n  ```\n\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
