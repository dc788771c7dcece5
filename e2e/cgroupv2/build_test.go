package cgroupv2

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// guestParts are the files the test makes on the host for the guest.
type guestParts struct {
	bins    map[string]string // guest path → host file: jvmfit and the test binaries
	classes string            // the service's classes (testdata/Tiny.java)
	cds     string            // a class-data sharing archive for the guest's JDK 21
}

// buildGuestParts builds, all at once: jvmfit and the test binaries of
// cgroup, sandbox and probe (static, as make build does), the service with
// JDK 17's javac for Java 17, and JDK 21's default CDS archive.
func buildGuestParts(t *testing.T, dir string) guestParts {
	t.Helper()
	root := repoRoot(t)
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	p := guestParts{bins: map[string]string{}, classes: filepath.Join(dir, "classes"), cds: filepath.Join(dir, "classes.jsa")}
	jobs := [][]string{
		{javac17, "--release", "17", "-d", p.classes, "testdata/Tiny.java"},
		{filepath.Join(jdk21, "bin", "java"), "-Xshare:dump", "-XX:SharedArchiveFile=" + p.cds},
	}
	for name, args := range map[string][]string{
		"jvmfit":       {"build", "-trimpath", "-ldflags", "-s -w"},
		"cgroup.test":  {"test", "-c"},
		"sandbox.test": {"test", "-c"},
		"probe.test":   {"test", "-c"},
		"pagehog":      {"build"},
	} {
		pkg := "./internal/" + strings.TrimSuffix(name, ".test")
		switch name {
		case "jvmfit":
			pkg = "./cmd/jvmfit"
		case "pagehog":
			// The stall tests' program (internal/sandbox): the guest has no go.
			pkg = "./internal/sandbox/testdata/pagehog"
		}
		out := filepath.Join(dir, name)
		p.bins["/guest/bin/"+name] = out
		// -C: the module's root, wherever go test runs this from.
		jobs = append(jobs, append([]string{goCmd, "-C", root}, append(args, "-o", out, pkg)...))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []string
	for _, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(job[0], job[1:]...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if b, err := cmd.CombinedOutput(); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Sprintf("%s: %v\n%s", strings.Join(job, " "), err, b))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatal(strings.Join(errs, "\n"))
	}
	return p
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s", root)
	}
	return root
}
