package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Fit, the launcher's plan, for each of the forms: it plans
// (never refuses over sizing), keeps the user's options, caps no open
// region below what an app needs to start, and says its doubt in one line
// with the numbers; Strict refuses exactly where Fit doubts.
func TestFitTable(t *testing.T) {
	cases := []struct {
		name     string
		mem      int64
		user     []string
		profile  *Profile
		doubt    bool
		metaCap  bool   // a MaxMetaspaceSize of jvmfit's
		heap     int64  // the plan's heap region
		inDoubt  string // a figure the doubt line must name
		noOption string // an option jvmfit must not emit
	}{
		{name: "MaxRAMPercentage=75 at 1Gi", mem: size.GiB, user: []string{"-XX:MaxRAMPercentage=75"}, doubt: true, heap: 768 * mib, inDoubt: "heap 768Mi", noOption: "-Xmx"},
		{name: "-Xmx768m at 1Gi", mem: size.GiB, user: []string{"-Xmx768m"}, doubt: true, heap: 768 * mib, inDoubt: "leaves 256Mi"},
		{name: "-Xmx350m at 512Mi", mem: 512 * mib, user: []string{"-Xmx350m"}, doubt: true, heap: 350 * mib, inDoubt: "leaves 162Mi"},
		{name: "-Xmx300m at 512Mi: metaspace would get 35Mi", mem: 512 * mib, user: []string{"-Xmx300m"}, doubt: true, heap: 300 * mib, inDoubt: "leave metaspace a cap of "},
		{name: "-Xmx256m at 512Mi fits", mem: 512 * mib, user: []string{"-Xmx256m"}, metaCap: true, heap: 256 * mib},
		// Without a profile metaspace is the JDK's own choice below ~420 MiB
		// and the budget's cap above (budget.go); 64Mi holds the JDK's own
		// heap without doubt.
		{name: "no options at 512Mi", mem: 512 * mib, metaCap: true},
		{name: "no options at 256Mi", mem: 256 * mib, metaCap: false, heap: 126 * mib},
		{name: "no options at 64Mi: the JDK's heap", mem: 64 * mib, heap: 32 * mib},
		{name: "-Xms400m at 512Mi: the heap is the user's start", mem: 512 * mib, user: []string{"-Xms400m"}, doubt: true, heap: 400 * mib},
		{name: "-Xmx2g at 1Gi: above the limit, java still starts", mem: size.GiB, user: []string{"-Xmx2g"}, doubt: true, heap: 2 * size.GiB, inDoubt: "exceed that by"},
		{name: "a measured metaspace keeps its cap when it fits", mem: 512 * mib, user: []string{"-Xmx300m"},
			profile: &Profile{MetaspaceUsedBytes: 40 * mib, LiveHeapBytes: 30 * mib}, metaCap: true, heap: 300 * mib},
		{name: "a measured metaspace that does not fit gets no cap", mem: 512 * mib, user: []string{"-Xmx400m"},
			profile: &Profile{MetaspaceUsedBytes: 90 * mib, LiveHeapBytes: 30 * mib}, doubt: true, heap: 400 * mib},
	}
	for _, c := range cases {
		in := Input{Limits: limits(c.mem, 1), JDK: jdk17, Profile: c.profile}
		p, opts, err := Fit(in, c.user)
		if err != nil {
			t.Fatalf("%s: refused: %v", c.name, err)
		}
		if (p.Doubt != "") != c.doubt || strings.Contains(p.Doubt, "\n") || !strings.Contains(p.Doubt, c.inDoubt) {
			t.Errorf("%s: doubt %q, want %v with %q", c.name, p.Doubt, c.doubt, c.inDoubt)
		}
		if got := has(p, "-XX:MaxMetaspaceSize="); got != c.metaCap {
			t.Errorf("%s: metaspace cap %v, want %v: %v", c.name, got, c.metaCap, p.Options)
		}
		for _, o := range p.Options {
			if v, ok := strings.CutPrefix(o, "-XX:MaxMetaspaceSize="); ok && c.profile == nil {
				if n, _ := size.Parse(v); n < metaStartNeed {
					t.Errorf("%s: metaspace capped at %s, below what an app may need to start", c.name, v)
				}
			}
		}
		if c.heap > 0 && p.HeapBytes() != c.heap {
			t.Errorf("%s: heap %s, want %s", c.name, size.Format(p.HeapBytes()), size.Format(c.heap))
		}
		if c.noOption != "" && has(p, c.noOption) {
			t.Errorf("%s: %s emitted: %v", c.name, c.noOption, p.Options)
		}
		if n := len(c.user); n > 0 && strings.Join(opts[len(opts)-n:], " ") != strings.Join(c.user, " ") {
			t.Errorf("%s: the command line does not end with the user's options: %v", c.name, opts)
		}
		for _, r := range p.Regions {
			if r.Bytes < 0 {
				t.Errorf("%s: negative region %+v", c.name, r)
			}
		}
		_, _, serr := Strict(in, c.user)
		var ref *RefusedError
		if c.doubt != errors.As(serr, &ref) {
			t.Errorf("%s: --strict gives %v where Fit's doubt is %q", c.name, serr, p.Doubt)
		}
	}
}

// A malformed size is the JDK's refusal, and Fit's: every occurrence
// counts, since the JVM rejects one even when a later option sets the
// flag again.
func TestFitRefusesWhatTheJDKRejects(t *testing.T) {
	for _, user := range [][]string{{"-Xmx12q"}, {"-Xmx12q", "-Xmx300m"}, {"-XX:MaxMetaspaceSize=lots"}} {
		if _, _, err := Fit(Input{Limits: limits(512*mib, 1), JDK: jdk17}, user); err == nil || !strings.Contains(err.Error(), user[0]) {
			t.Errorf("%v: %v, want a refusal naming %s", user, err, user[0])
		}
	}
}

// Override (trials) still refuses what it cannot plan: a limit the
// planner refuses costs no trial.
func TestOverrideStillRefuses(t *testing.T) {
	var ref *RefusedError
	if _, _, err := Override(Input{Limits: limits(512*mib, 1), JDK: jdk17}, []string{"-Xmx420m"}); !errors.As(err, &ref) {
		t.Errorf("Override planned -Xmx420m at 512Mi: %v", err)
	}
}
