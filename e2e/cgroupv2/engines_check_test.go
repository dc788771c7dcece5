package cgroupv2

import (
	"strconv"
	"strings"
	"testing"
)

// checkEngine judges an engine layout's steps (testdata/guest/engines.sh),
// each as a subtest LAYOUT/STEP.
func checkEngine(t *testing.T, g *guestRun, engine string) {
	layoutRun(t, g, engine, func(t *testing.T) {
		stepRun(t, g, engine, "driver", func(t *testing.T, s *guestStep) {
			if got := strings.Join(nonEmpty(s.Stdout), " "); s.RC != 0 || got != "cgroupfs 2" && got != "cgroupfs v2" {
				t.Errorf("rc %d, %s says %q: want the cgroupfs driver on cgroup v2", s.RC, engine, got)
			}
		})
		stepRun(t, g, engine, "image", func(t *testing.T, s *guestStep) {
			if s.RC != 0 || len(nonEmpty(s.Stdout)) == 0 {
				t.Errorf("rc %d: want the image imported and inspected", s.RC)
			}
		})
		stepRun(t, g, engine, "doctor", func(t *testing.T, s *guestStep) {
			if s.RC != 0 || !strings.Contains(strings.Join(s.Stdout, "\n"), "cgroup:      v2") {
				t.Errorf("rc %d: want v2", s.RC)
			}
		})
		stepRun(t, g, engine, "killed", func(t *testing.T, s *guestStep) {
			out := keyed(s.Stdout)
			// The engine owns the container: the SIGKILL leaves it (and its
			// groups) for the next run's sweep, which "leftover" checks.
			if s.RC != 0 || len(strings.Fields(out["containers"])) == 0 {
				t.Errorf("rc %d, containers %q right after the SIGKILL: want the killed run's container still there", s.RC, out["containers"])
			}
			t.Logf("right after the SIGKILL: containers %q, groups %q", out["containers"], out["groups"])
		})
		stepRun(t, g, engine, "ok", func(t *testing.T, s *guestStep) {
			r := trialJSON(t, s)
			if s.RC != 0 || r.Verdict != "OK" {
				t.Errorf("rc %d, verdict %s %s: want OK at %s", s.RC, r.Verdict, r.Kind, okMemory)
			}
			if r.MemoryPeak <= 0 || r.MemoryPeak > 256<<20 {
				t.Errorf("memory peak %d: want the container group's, under the limit", r.MemoryPeak)
			}
			in := keyed(s.Stdout)
			want := map[string]string{"inside memory.max": strconv.Itoa(256 << 20), "inside memory.swap.max": "0", "inside cpu.max": "100000 100000"}
			for k, v := range want {
				if in[k] != v {
					t.Errorf("%s read in the container: %q, want %q", k, in[k], v)
				}
			}
			// The container's own cgroup namespace: it sees itself at the root.
			if in["inside cgroup"] != "0::/" {
				t.Errorf("/proc/self/cgroup in the container: %q, want 0::/", in["inside cgroup"])
			}
			t.Logf("OK at %s: start %.1fs, memory.peak %.1f MiB; inside: %v", okMemory, r.Start, mib(r.MemoryPeak), in)
		})
		stepRun(t, g, engine, "leftover", func(t *testing.T, s *guestStep) {
			if left := nonEmpty(s.Stdout); s.RC != 0 || len(left) > 0 {
				t.Errorf("after the killed run and a rerun: %q left (rc %d), want no container and no jvmfit group", left, s.RC)
			}
		})
		stepRun(t, g, engine, "small", func(t *testing.T, s *guestStep) {
			r := trialJSON(t, s)
			if s.RC != 1 || r.Verdict != "KO" || r.Kind != "oom-killed" {
				t.Errorf("rc %d, verdict %s %s: want KO oom-killed at %s", s.RC, r.Verdict, r.Kind, engineSmallMemory)
			}
			t.Logf("KO %s at %s: memory.peak %.1f MiB", r.Kind, engineSmallMemory, mib(r.MemoryPeak))
		})
		stepRun(t, g, engine, "after", func(t *testing.T, s *guestStep) {
			if left := nonEmpty(s.Stdout); s.RC != 0 || len(left) > 0 {
				t.Errorf("%q left (rc %d), want nothing", left, s.RC)
			}
		})
	})
}

// keyed reads "KEY VALUE" lines whose key is one of the steps' words
// (containers, groups, inside FILE), the rest of the line the value.
func keyed(lines []string) map[string]string {
	m := map[string]string{}
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case len(f) >= 2 && f[0] == "inside":
			m["inside "+f[1]] = strings.Join(f[2:], " ")
		case len(f) >= 1 && (f[0] == "containers" || f[0] == "groups" || f[0] == "failed"):
			m[f[0]] = strings.Join(f[1:], " ")
		}
	}
	return m
}
