package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// writeFiles makes a fixture group directory: file name -> content.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadPressureV1(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"memory.usage_in_bytes": "33554432\n", "memory.limit_in_bytes": "33554432\n", "memory.failcnt": "294\n",
		"memory.oom_control": "oom_kill_disable 1\nunder_oom 1\noom_kill 0\n",
		"memory.stat":        "cache 26243072\nrss 7073792\nworkingset_refault_anon 3\nworkingset_refault_file 40\npgmajfault 7\ntotal_pgmajfault 9\n",
	})
	p, err := readPressure(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := pressure{Usage: 32 << 20, Limit: 32 << 20, UnderOOM: true, Refaults: 43, MajFaults: 7}
	if p != want {
		t.Errorf("got %+v, want %+v", p, want)
	}
}

func TestReadPressureV2(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"memory.current": "75497472\n", "memory.max": "75497472\n",
		"memory.events":   "low 0\nhigh 0\nmax 1200\noom 2\noom_kill 0\noom_group_kill 0\n",
		"memory.stat":     "anon 1\nworkingset_refault_anon 5\nworkingset_refault_file 10\npgmajfault 11\n",
		"memory.pressure": "some avg10=91.50 avg60=40.00 avg300=9.00 total=123\nfull avg10=77.25 avg60=30.00 avg300=7.00 total=99\n",
	})
	p, err := readPressure(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := pressure{Usage: 72 << 20, Limit: 72 << 20, EventsOOM: 2, Refaults: 15, MajFaults: 11, FullAvg10: 77.25, HasPSI: true}
	if p != want {
		t.Errorf("got %+v, want %+v", p, want)
	}
	// No limit and no PSI: never pinned.
	dir = writeFiles(t, map[string]string{"memory.current": "100\n", "memory.max": "max\n"})
	if p, err = readPressure(dir); err != nil || p.Limit != -1 || p.pinned() || p.HasPSI {
		t.Errorf("unlimited group: %+v %v", p, err)
	}
	if _, err := readPressure(t.TempDir()); err == nil {
		t.Error("an empty directory read without error")
	}
}

// The watch declares a stall only after stallAfter of pinned readings with
// reclaim failing, and any healthy reading restarts the count.
func TestStallWatch(t *testing.T) {
	const lim = 64 << 20
	at := func(usage int64, mod func(*pressure)) pressure {
		p := pressure{Usage: usage, Limit: lim}
		if mod != nil {
			mod(&p)
		}
		return p
	}
	underOOM := func(p *pressure) { p.UnderOOM = true }
	cases := []struct {
		name  string
		read  func(i int) pressure
		stall bool
		word  string
	}{
		{"under_oom pinned", func(int) pressure { return at(lim, underOOM) }, true, "under_oom"},
		{"under_oom but usage well below", func(int) pressure { return at(lim/2, underOOM) }, false, ""},
		{"thrashing in the kernel's reclaim saw, 2.3 MiB under the limit", func(i int) pressure {
			return at(lim-(23<<20)/10, func(p *pressure) { p.Refaults, p.MajFaults = int64(i)*2000, int64(i)*thrashMajors })
		}, true, "thrashing"},
		{"pinned, healthy reclaim (nothing refaulted)", func(i int) pressure {
			return at(lim-4096, nil)
		}, false, ""},
		{"thrashing: refaults and major faults rise", func(i int) pressure {
			return at(lim, func(p *pressure) { p.Refaults, p.MajFaults = int64(i)*2000, int64(i)*thrashMajors })
		}, true, "thrashing: 85.9Mi read back, 110 major faults"},
		{"page-cache churn: refaults rise, no major faults", func(i int) pressure {
			return at(lim, func(p *pressure) { p.Refaults = int64(i) * 2000 })
		}, false, ""},
		{"churn with a few major faults a tick", func(i int) pressure {
			return at(lim, func(p *pressure) { p.Refaults, p.MajFaults = int64(i)*2000, int64(i)*(thrashMajors-1) })
		}, false, ""},
		{"major faults, refaults under a limit's worth", func(i int) pressure {
			return at(lim, func(p *pressure) { p.Refaults, p.MajFaults = int64(i)*1000, int64(i)*thrashMajors })
		}, false, ""},
		{"thrashing below the limit (global reclaim)", func(i int) pressure {
			return at(lim-8<<20, func(p *pressure) { p.Refaults, p.MajFaults = int64(i)*2000, int64(i)*thrashMajors })
		}, false, ""},
		{"v2 PSI full over half", func(int) pressure {
			return at(lim, func(p *pressure) { p.HasPSI, p.FullAvg10 = true, 80 })
		}, true, "80%"},
		{"v2 PSI full low", func(int) pressure {
			return at(lim, func(p *pressure) { p.HasPSI, p.FullAvg10 = true, 10 })
		}, false, ""},
		{"v2 oom events rise", func(i int) pressure {
			return at(lim, func(p *pressure) { p.EventsOOM = int64(i) })
		}, true, "memory.events"},
		{"one healthy reading in each stretch", func(i int) pressure {
			if i%8 == 7 {
				return at(lim/2, nil)
			}
			return at(lim, underOOM)
		}, false, ""},
	}
	t0 := time.Unix(1000, 0)
	for _, c := range cases {
		var w stallWatch
		got, when := false, time.Duration(0)
		var why string
		for i := 0; i < 40 && !got; i++ {
			now := t0.Add(time.Duration(i) * stallTick)
			got, why = w.observe(now, c.read(i))
			when = now.Sub(t0)
		}
		if got != c.stall {
			t.Errorf("%s: stall %v, want %v", c.name, got, c.stall)
			continue
		}
		if got && (when < stallAfter || when > stallAfter+2*stallTick) {
			t.Errorf("%s: declared after %v, want about %v", c.name, when, stallAfter)
		}
		if got && (!strings.Contains(why, c.word) || !strings.Contains(why, "64Mi limit")) {
			t.Errorf("%s: %q lacks %q and the limit", c.name, why, c.word)
		}
	}
}

// fillMain is the stand-in for a JVM that starves at its limit: it turns
// the OOM killer off for its own group (so the kernel stalls it instead of
// killing it), then touches more anonymous memory than the limit allows.
func fillMain() int {
	b, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(b), "\n") {
		if p := strings.SplitN(line, ":", 3); len(p) == 3 && p[1] == "memory" {
			dir := filepath.Join("/sys/fs/cgroup/memory", p[2])
			if err := os.WriteFile(filepath.Join(dir, "memory.oom_control"), []byte("1"), 0); err != nil {
				return 3
			}
		}
	}
	mem, err := syscall.Mmap(-1, 0, 256<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return 4
	}
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 1
	}
	return 0
}

// TestMemoryStallOnRealGroup: a program stuck at its limit with the OOM
// killer off is reported as stalled within seconds, and Stop still ends it
// and removes its group.
func TestMemoryStallOnRealGroup(t *testing.T) {
	needCgroups(t)
	if _, err := os.Stat("/sys/fs/cgroup/memory/memory.oom_control"); err != nil {
		t.Skip("a cgroup v1 host only: v2 has no oom_kill_disable to make a stall with")
	}
	t0 := time.Now()
	p := start(t, context.Background(), Spec{Name: "stall", Argv: []string{os.Args[0]},
		Env:    append(os.Environ(), helperEnv+"=fill"),
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
	paths := p.group.Paths()
	select {
	case <-p.Stalled():
	case <-p.Done():
		t.Fatalf("the program ended (%v) instead of stalling", p.Exit())
	case <-time.After(30 * time.Second):
		st, _ := p.Stats()
		t.Fatalf("no stall seen in 30s; stats %+v", st)
	}
	took := time.Since(t0)
	t.Logf("stall seen after %v: %s", took.Round(10*time.Millisecond), p.Stall())
	if took < stallAfter || !strings.Contains(p.Stall(), "under_oom") || !strings.Contains(p.Stall(), "64Mi") {
		t.Errorf("stall after %v: %q", took, p.Stall())
	}
	pid := p.Pid()
	// SIGTERM is enough here (a Go program dies of it even in the OOM
	// wait, which is killable); a JVM gets SIGKILL after the grace.
	if e := p.Stop(time.Second); e.Signal == "" || !e.Stopped || e.OOMKilled {
		t.Errorf("exit %+v, want a signal from Stop", e)
	}
	if err := p.StopErr(); err != nil {
		t.Error(err)
	}
	assertGone(t, []int{pid}, paths)
}

// A healthy program under its limit is never called stalled.
func TestNoStallUnderTheLimit(t *testing.T) {
	needCgroups(t)
	p := start(t, context.Background(), Spec{Name: "nostall", Argv: []string{"sleep", "7"},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20}})
	select {
	case <-p.Stalled():
		t.Fatalf("sleep called stalled: %s", p.Stall())
	case <-p.Done():
	}
	if p.Stall() != "" {
		t.Errorf("stall %q", p.Stall())
	}
}
