package cgroupv2

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// checkLayout judges one layout's steps, each as a subtest named
// LAYOUT/STEP, and logs the layout's wall time inside the guest.
func checkLayout(t *testing.T, g *guestRun, layout string) {
	layoutRun(t, g, layout, func(t *testing.T) {
		stepRun(t, g, layout, "doctor", func(t *testing.T, s *guestStep) {
			out := strings.Join(s.Stdout, "\n")
			if s.RC != 0 || !strings.Contains(out, "cgroup:      v2") || !strings.Contains(out, "place:") || strings.Contains(out, "place:       none") {
				t.Errorf("rc %d: want v2 and a place found", s.RC)
			}
			for _, l := range s.Stdout {
				if strings.HasPrefix(l, "place:") {
					t.Log(l)
				}
			}
		})
		testsStep(t, g, layout, "cgroup", cgroupTests)
		testsStep(t, g, layout, "sandbox", sandboxTests)
		testsStep(t, g, layout, "probe", probeTests)
		stepRun(t, g, layout, "killed", func(t *testing.T, s *guestStep) {
			if left := nonEmpty(s.Stdout); s.RC != 0 || len(left) > 0 {
				t.Errorf("rc %d, trial groups %q left: want a trial SIGKILLed while ready, its groups removed by jvmfit's keeper", s.RC, left)
			}
		})
		stepRun(t, g, layout, "ok", func(t *testing.T, s *guestStep) {
			r := trialJSON(t, s)
			if s.RC != 0 || r.Verdict != "OK" {
				t.Errorf("rc %d, verdict %s %s: want OK at %s", s.RC, r.Verdict, r.Kind, okMemory)
			}
			if r.MemoryPeak <= 0 || r.MemoryPeak > 256<<20 || r.WorkingSetPeak <= 0 || r.WorkingSetPeak > r.MemoryPeak {
				t.Errorf("memory peak %d, working set peak %d: want both read from the group, the working set at most the peak, under the limit",
					r.MemoryPeak, r.WorkingSetPeak)
			}
			t.Logf("OK at %s: start %.1fs, memory.peak %.1f MiB, working set %.1f MiB", okMemory, r.Start, mib(r.MemoryPeak), mib(r.WorkingSetPeak))
		})
		stepRun(t, g, layout, "leftover", func(t *testing.T, s *guestStep) {
			if left := nonEmpty(s.Stdout); s.RC != 0 || len(left) > 0 {
				t.Errorf("after the killed trial and a rerun: %q left (rc %d), want none", left, s.RC)
			}
		})
		stepRun(t, g, layout, "small", func(t *testing.T, s *guestStep) {
			r := trialJSON(t, s)
			if s.RC != 1 || r.Verdict != "KO" || (r.Kind != "oom-killed" && r.Kind != "java-oom") {
				t.Errorf("rc %d, verdict %s %s: want KO oom-killed or java-oom at %s", s.RC, r.Verdict, r.Kind, smallMemory)
			}
			if r.MemoryPeak <= 0 {
				t.Errorf("memory peak %d: want the group's", r.MemoryPeak)
			}
			t.Logf("KO %s at %s: memory.peak %.1f MiB, working set %.1f MiB", r.Kind, smallMemory, mib(r.MemoryPeak), mib(r.WorkingSetPeak))
		})
	})
}

// layoutRun runs a layout's checks as the subtest LAYOUT: it logs the
// layout's wall time inside the guest, runs steps, and fails if any
// jvmfit* cgroup was left in the guest after the layout.
func layoutRun(t *testing.T, g *guestRun, layout string, steps func(*testing.T)) {
	t.Run(layout, func(t *testing.T) {
		if took, ok := g.Layouts[layout]; ok {
			t.Logf("layout %s: %v inside the guest", layout, took.Round(100*time.Millisecond))
		}
		steps(t)
		if left, ok := g.Left[layout]; !ok || left != "none" {
			t.Errorf("jvmfit* cgroups left in the guest after the layout: %q (want none)", left)
		}
	})
}

// checkMinmem checks the minmem pseudo-layout (JVMFIT_V2GUEST_LAYOUTS=
// minmem): it found a lowest OK limit, which it logs.
func checkMinmem(t *testing.T, g *guestRun) {
	stepRun(t, g, "minmem", "minmem", func(t *testing.T, s *guestStep) {
		found := false
		for _, l := range s.Stdout {
			if strings.HasPrefix(l, "Lowest OK limit") || strings.Contains(l, "| tiny |") {
				t.Log(l)
				found = found || strings.HasPrefix(l, "Lowest OK limit")
			}
		}
		if s.RC != 0 || !found {
			t.Errorf("rc %d: want a minmem answer", s.RC)
		}
	})
}

// stepRun runs check as the subtest of a step that ended; a step the guest
// never began or never ended fails with the end of its output.
func stepRun(t *testing.T, g *guestRun, layout, name string, check func(*testing.T, *guestStep)) {
	t.Run(name, func(t *testing.T) {
		s := g.step(layout, name)
		switch {
		case s == nil:
			t.Fatalf("the guest never began step %s of layout %s, which said:\n%s", name, layout, tail(g.Output[layout], 30))
		case !s.Ended:
			t.Fatalf("step %s of layout %s never ended:\n%s", name, layout, tail(append(s.Log, s.Stdout...), 40))
		}
		t.Logf("%v inside the guest", s.Took.Round(100*time.Millisecond))
		defer func() {
			if t.Failed() {
				t.Logf("its output:\n%s\n-- stdout --\n%s", tail(s.Log, 60), tail(s.Stdout, 60))
			}
		}()
		check(t, s)
	})
}

// testsStep checks that a test binary ran every test named, and each PASSed.
func testsStep(t *testing.T, g *guestRun, layout, name string, tests []string) {
	stepRun(t, g, layout, name, func(t *testing.T, s *guestStep) {
		out := strings.Join(s.Stdout, "\n")
		for _, test := range tests {
			if !regexp.MustCompile(`(?m)^--- PASS: ` + test + ` `).MatchString(out) {
				t.Errorf("%s did not pass", test)
			}
		}
		if s.RC != 0 || strings.Contains(out, "--- SKIP") {
			t.Errorf("rc %d: want 0, every test passed, none skipped", s.RC)
		}
	})
}

// trialResult is what the checks read of `jvmfit run --json`: steps.sh
// prints its top-level "key": value lines.
type trialResult struct {
	Verdict        string  `json:"verdict"`
	Kind           string  `json:"kind"`
	Start          float64 `json:"start_seconds"`
	MemoryPeak     int64   `json:"memory_peak_bytes"`
	WorkingSetPeak int64   `json:"working_set_peak_bytes"`
}

func trialJSON(t *testing.T, s *guestStep) trialResult {
	t.Helper()
	var fields []string
	for _, l := range nonEmpty(s.Stdout) {
		// Other lines a step prints beside the JSON's (keyed) are not fields.
		if l = strings.TrimSpace(l); strings.HasPrefix(l, `"`) {
			fields = append(fields, strings.TrimSuffix(l, ","))
		}
	}
	var r trialResult
	if err := json.Unmarshal([]byte("{"+strings.Join(fields, ",")+"}"), &r); err != nil || r.Verdict == "" {
		t.Fatalf("jvmfit run --json printed no result (%v); rc %d", err, s.RC)
	}
	return r
}

func nonEmpty(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
