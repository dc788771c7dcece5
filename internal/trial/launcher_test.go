//go:build linux

package trial

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// bigMetaspaceProfile is a profile whose app needs 150 MiB of metaspace:
// far above the planner's floor, so a plan made with it differs.
const bigMetaspaceProfile = `{"version":1,"metaspaceUsedBytes":157286400,"classSpaceUsedBytes":20000000,"loadedClasses":20000}`

func writeProfile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func optionWith(opts []string, prefix string) string {
	for _, o := range opts {
		if strings.HasPrefix(o, prefix) {
			return o
		}
	}
	return ""
}

// --profile reaches the planner, and its digest the key: a profile that
// raises metaspace raises the plan's MaxMetaspaceSize.
func TestProfileChangesThePlanAndTheKey(t *testing.T) {
	a := fixtureApp(t, "serve", 30*time.Second)
	base := Spec{MemoryBytes: size.GiB, CPUs: 1, JVM: "jvmfit"} // caps without a profile from 1 GiB
	without := prepared(t, a, base)
	with := base
	with.Profile = writeProfile(t, bigMetaspaceProfile)
	with = prepared(t, a, with)
	m0, m1 := optionWith(without.JVMOptions, "-XX:MaxMetaspaceSize="), optionWith(with.JVMOptions, "-XX:MaxMetaspaceSize=")
	v, _ := size.Parse(strings.TrimPrefix(m1, "-XX:MaxMetaspaceSize="))
	if m0 == "" || v < 150*size.MiB {
		t.Fatalf("MaxMetaspaceSize without a profile %q, with one %q: want at least 150m with it", m0, m1)
	}
	if with.ProfileDigest == "" || with.Key() == without.Key() {
		t.Fatalf("the profile is not part of the key: digest %q", with.ProfileDigest)
	}
	other := base
	other.Profile = writeProfile(t, strings.Replace(bigMetaspaceProfile, "157286400", "57286400", 1))
	if other = prepared(t, a, other); other.Key() == with.Key() {
		t.Fatal("two different profiles give the same key")
	}
	def := base
	def.JVM = "default"
	defWith := def
	defWith.Profile = with.Profile
	if prepared(t, a, def).Key() != prepared(t, a, defWith).Key() {
		t.Fatal("a profile changed the key of a --jvm default trial, which does not plan")
	}
}

// jvmfitBinary builds cmd/jvmfit once for the tests that run jvmfit exec,
// into the fixture's directory, which TestMain removes.
var jvmfitBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(fixtureClasses, "jvmfit")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/jvmfit").CombinedOutput()
	if err != nil {
		return "", &buildError{err, string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// cmdlineSpy records the app's /proc/PID/cmdline once jvmfit exec has
// replaced itself with java.
type cmdlineSpy struct {
	Sandbox
	exe  string
	mu   sync.Mutex
	argv []string
}

func (s *cmdlineSpy) Start(ctx context.Context, l Launch) (Process, error) {
	p, err := s.Sandbox.Start(ctx, l)
	if err == nil {
		go s.watch(p)
	}
	return p, err
}

func (s *cmdlineSpy) watch(p Process) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile("/proc/" + itoa(p.Pid()) + "/cmdline")
		if err != nil {
			return
		}
		argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(argv) > 0 && argv[0] != s.exe && filepath.Base(argv[0]) == "java" {
			s.mu.Lock()
			s.argv = argv
			s.mu.Unlock()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A soak through the launcher: the trial starts `jvmfit exec --profile`,
// which plans inside the trial's cgroup; the app's own command line holds
// the plan's options (with the profile's metaspace), added by exec and not
// by the trial.
func TestSoakThroughExecRunsThePlanInTheTrialsCgroup(t *testing.T) {
	needRoot(t)
	needFixture(t)
	bin, err := jvmfitBinary()
	if err != nil {
		t.Fatalf("cannot build jvmfit: %v", err)
	}
	saved := Executable
	Executable = func() (string, error) { return bin, nil }
	defer func() { Executable = saved }()

	a := fixtureApp(t, "serve", 30*time.Second)
	prof := writeProfile(t, bigMetaspaceProfile)
	direct := prepared(t, a, Spec{MemoryBytes: 384 * size.MiB, CPUs: 1, JVM: "jvmfit:footprint", Profile: prof})
	spec := prepared(t, a, Spec{MemoryBytes: 384 * size.MiB, CPUs: 1, JVM: "jvmfit:footprint", Profile: prof,
		Launcher: LauncherExec, Soak: true, Duration: 3 * time.Second})
	if optionWith(spec.JVMOptions, "-XX:MaxMetaspaceSize=") != "" || spec.Key() == direct.Key() {
		t.Fatalf("the exec trial's own options %q hold the plan, or its key is the direct trial's", spec.JVMOptions)
	}
	d := deps(t)
	spy := &cmdlineSpy{Sandbox: d.Sandbox, exe: bin}
	d.Sandbox = spy
	r, err := Run(context.Background(), spec, a, d)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != OK {
		t.Fatalf("%s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	spy.mu.Lock()
	argv := spy.argv
	spy.mu.Unlock()
	if len(argv) == 0 {
		t.Fatal("never saw the app's java command line")
	}
	line := " " + strings.Join(argv, " ") + " "
	for _, o := range direct.JVMOptions {
		if !strings.Contains(line, " "+o+" ") {
			t.Errorf("the app's command line lacks the plan's %s:\n%s", o, line)
		}
	}
	if !strings.Contains(line, " -cp ") {
		t.Errorf("the app's command line lost the descriptor's command: %s", line)
	}
}
