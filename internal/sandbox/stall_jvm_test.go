//go:build linux

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

const starveJava = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"

// privateJDK makes a JDK whose launcher, libjvm.so and CDS archive are
// copies of java's (the rest symlinked), out of the page cache, on disk.
// Why: the page cache charges a file's pages to the group that first read
// them. The machine's own JDK is mapped by other JVMs, so its pages are
// charged elsewhere and never evicted by a trial's limit; measured here, the
// same JVM at the same 100Mi limit then sits at 86Mi and runs. A container
// image's JDK is read by its container alone, as these copies are.
func privateJDK(t *testing.T, java string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(java)
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Dir(filepath.Dir(real))
	dst := filepath.Join(diskDir(t), "jdk")
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		writeCold(t, to, b, 0o755)
	}
	// link mirrors dir of home into dst: copies for the names in own,
	// symlinks (to the real files) for the rest.
	link := func(dir string, own map[string]bool) {
		if err := os.MkdirAll(filepath.Join(dst, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(filepath.Join(home, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			from, to := filepath.Join(home, dir, e.Name()), filepath.Join(dst, dir, e.Name())
			if own[e.Name()] {
				continue
			}
			target, err := filepath.EvalSymlinks(from)
			if err != nil {
				continue // a dangling link in the JDK (e.g. src.zip)
			}
			if err := os.Symlink(target, to); err != nil {
				t.Fatal(err)
			}
		}
	}
	link(".", map[string]bool{"bin": true, "lib": true})
	link("lib", map[string]bool{"server": true})
	link("lib/server", map[string]bool{"libjvm.so": true, "classes.jsa": true})
	if err := os.MkdirAll(filepath.Join(dst, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(real, filepath.Join(dst, "bin", "java"))
	copyFile(filepath.Join(home, "lib/server/libjvm.so"), filepath.Join(dst, "lib/server/libjvm.so"))
	if _, err := os.Stat(filepath.Join(home, "lib/server/classes.jsa")); err == nil {
		copyFile(filepath.Join(home, "lib/server/classes.jsa"), filepath.Join(dst, "lib/server/classes.jsa"))
	}
	return filepath.Join(dst, "bin", "java")
}

// compileStarve compiles testdata/starve with the javac beside java.
func compileStarve(t *testing.T, java string) string {
	t.Helper()
	javac := filepath.Join(filepath.Dir(java), "javac")
	if _, err := os.Stat(javac); err != nil {
		t.Fatalf("no javac beside %s: install a JDK 17 with javac (.ci/install)", java)
	}
	dir := t.TempDir()
	if b, err := exec.Command(javac, "-d", dir, "testdata/starve/Starve.java").CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	return dir
}

// TestStarvedJVMIsMemoryStall: a real JVM whose heap and other anonymous
// memory (about 84 MiB with these options) leave 16 MiB of a 100Mi limit
// for its code and CDS archive thrashes without being OOM-killed; it never
// gets through its work. The sandbox calls it a thrashing stall within
// seconds, and Stop ends it and removes its group.
func TestStarvedJVMIsMemoryStall(t *testing.T) {
	needCgroups(t)
	needJava(t, starveJava)
	classes := compileStarve(t, starveJava)
	java := privateJDK(t, starveJava)
	var out syncBuffer
	t0 := time.Now()
	p := start(t, context.Background(), Spec{Name: "starve",
		Argv: []string{java, "-Xms64m", "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
			"-XX:+AlwaysPreTouch", "-cp", classes, "Starve", "40"},
		Stdout: &out, Stderr: &out, Limits: cgroup.Spec{MemoryBytes: 100 << 20, CPUs: 1}})
	paths := p.group.Paths()
	select {
	case <-p.Stalled():
	case <-p.Done():
		t.Fatalf("the JVM ended (%v) instead of stalling; output:\n%s", p.Exit(), out.String())
	case <-time.After(30 * time.Second):
		r, _ := readPressure(p.group.Path())
		t.Fatalf("no stall seen in 30s; reading %+v; output:\n%s", r, out.String())
	}
	took := time.Since(t0)
	t.Logf("stall seen after %v: %s; output %q", took.Round(10*time.Millisecond), p.Stall(), out.String())
	if why := p.Stall(); !strings.Contains(why, "thrashing") || !strings.Contains(why, "100Mi limit") {
		t.Errorf("stall said %q, want thrashing at the 100Mi limit", why)
	}
	if took > 20*time.Second {
		t.Errorf("stall declared %v after start, want well within 20s", took)
	}
	if st, err := p.Stats(); err != nil || st.OOMKills != 0 {
		t.Errorf("stats %+v (%v): a stall is no OOM kill", st, err)
	}
	pid := p.Pid()
	// The JVM may still run its SIGTERM handler and exit 143 in the grace:
	// slowed down, not wedged.
	if e := p.Stop(time.Second); !e.Stopped || e.OOMKilled {
		t.Errorf("exit %+v, want stopped by Stop", e)
	}
	if err := p.StopErr(); err != nil {
		t.Error(err)
	}
	assertGone(t, []int{pid}, paths)
}
