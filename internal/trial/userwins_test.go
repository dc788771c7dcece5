//go:build linux

package trial

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

const temurin25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"

// finalFlag is the value the JVM takes for flag from these options, as
// -XX:+PrintFlagsFinal reports it.
func finalFlag(t *testing.T, java string, opts []string, flag string) string {
	t.Helper()
	args := append(append([]string{}, opts...), "-XX:+PrintFlagsFinal", "-version")
	out, err := exec.Command(java, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", java, args, err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 4 && f[1] == flag {
			return f[3]
		}
	}
	t.Fatalf("no %s in PrintFlagsFinal", flag)
	return ""
}

// jvmOptionsOf is the JVM options of a launch's command line: between the
// java binary and the fixture's -cp.
func jvmOptionsOf(argv []string) []string {
	var opts []string
	for _, a := range argv[1:] {
		if a == "-cp" {
			break
		}
		opts = append(opts, a)
	}
	return opts
}

// Issue 12, finding 10: under --jvm jvmfit the descriptor's
// jvm_options win, on the JVM's own reading of the command line; and
// finding 8: the app gets the plan's environment, as jvmfit exec sets it.
func TestDescriptorOptionsWinOverThePlanAndThePlanEnvIsSet(t *testing.T) {
	needRoot(t)
	a := fixtureApp(t, "serve", 30*time.Second)
	a.JVMOptions = []string{"-XX:MaxMetaspaceSize=128m"}
	// 320Mi: the planner counts the user's 128m metaspace cap whole, so it
	// refuses limits below about 246Mi with it.
	spec := prepared(t, a, Spec{MemoryBytes: 320 * size.MiB, CPUs: 1, JVM: "jvmfit"})
	if n := strings.Count(strings.Join(spec.JVMOptions, " "), "MaxMetaspaceSize"); n != 1 || spec.JVMOptions[len(spec.JVMOptions)-1] != "-XX:MaxMetaspaceSize=128m" {
		t.Fatalf("options %q: want the descriptor's MaxMetaspaceSize once, last", spec.JVMOptions)
	}
	if spec.JVMEnv["MALLOC_ARENA_MAX"] != "2" {
		t.Fatalf("plan env %v", spec.JVMEnv)
	}
	d := deps(t)
	spy := &launchSpy{Sandbox: d.Sandbox}
	d.Sandbox = spy
	r, err := Run(context.Background(), spec, a, d)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != OK {
		t.Fatalf("%s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	if got := finalFlag(t, spec.Java, jvmOptionsOf(spy.launch.Argv), "MaxMetaspaceSize"); got != "134217728" {
		t.Errorf("the JVM takes MaxMetaspaceSize=%s from %q, want the descriptor's 128m", got, spy.launch.Argv)
	}
	log, _ := os.ReadFile(r.LogFile)
	if !strings.Contains(string(log), "fixture env MALLOC_ARENA_MAX=2\n") {
		t.Errorf("the app did not get the plan's MALLOC_ARENA_MAX=2:\n%s", log)
	}
}

// A descriptor's own environment wins over the plan's, as in jvmfit exec.
func TestDescriptorEnvWinsOverThePlanEnv(t *testing.T) {
	needRoot(t)
	a := fixtureApp(t, "exit", 30*time.Second)
	a.Command[len(a.Command)-1] = "0"
	a.Env = map[string]string{"MALLOC_ARENA_MAX": "4"}
	// 320Mi: the planner counts the user's 128m metaspace cap whole, so it
	// refuses limits below about 246Mi with it.
	spec := prepared(t, a, Spec{MemoryBytes: 320 * size.MiB, CPUs: 1, JVM: "jvmfit"})
	// The spec (and so the trial's report, "jvm: ... (env ...)") names only
	// what the mode adds: not the plan's 2 the app's 4 replaced.
	if v, ok := spec.JVMEnv["MALLOC_ARENA_MAX"]; ok {
		t.Errorf("spec's mode env has MALLOC_ARENA_MAX=%s, which the descriptor's env overrides", v)
	}
	d := deps(t)
	spy := &launchSpy{Sandbox: d.Sandbox}
	d.Sandbox = spy
	if _, err := Run(context.Background(), spec, a, d); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, kv := range spy.launch.Env {
		if strings.HasPrefix(kv, "MALLOC_ARENA_MAX=") {
			n++
			if kv != "MALLOC_ARENA_MAX=4" {
				t.Errorf("app env has %s, want the descriptor's 4", kv)
			}
		}
	}
	if n != 1 {
		t.Errorf("MALLOC_ARENA_MAX set %d times", n)
	}
}

type launchSpy struct {
	Sandbox
	launch Launch
}

func (s *launchSpy) Start(ctx context.Context, l Launch) (Process, error) {
	s.launch = l
	return s.Sandbox.Start(ctx, l)
}

// Issue 12, finding 4: the plan is for the JDK that runs, whether the
// descriptor names it (java:) or its command hard-codes it, while the
// default java is 17.
func TestPlanIsForTheJDKThatRuns(t *testing.T) {
	needFixture(t)
	prereq.Java(t, temurin25)
	t.Setenv("JAVA_HOME", filepath.Dir(filepath.Dir(java17)))
	dir := t.TempDir()
	descs := map[string]string{
		"java: field (a JDK home)": fmt.Sprintf("java: %s\ncommand: [\"${java}\", \"${jvm_options}\", \"-cp\", %q, \"Server\", \"serve\", \"${port}\"]\n", filepath.Dir(filepath.Dir(temurin25)), fixtureClasses),
		"hard-coded in command":    fmt.Sprintf("command: [%q, \"${jvm_options}\", \"-cp\", %q, \"Server\", \"serve\", \"${port}\"]\n", temurin25, fixtureClasses),
	}
	for name, body := range descs {
		a, err := app.Parse(filepath.Join(dir, "app.yaml"), []byte("name: j25\nready: http://127.0.0.1:${port}/health\n"+body))
		if err != nil {
			t.Fatal(err)
		}
		spec, err := Prepare(Spec{MemoryBytes: 512 * size.MiB, CPUs: 1, JVM: "jvmfit:footprint"}, a, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if spec.JDKVersion != 25 || !hasOption(spec.JVMOptions, "-XX:+UseCompactObjectHeaders") {
			t.Errorf("%s: planned for JDK %d: %q", name, spec.JDKVersion, spec.JVMOptions)
		}
	}
	a, _ := app.Parse(filepath.Join(dir, "app.yaml"), []byte("name: j25\nready: http://127.0.0.1:${port}/health\n"+descs["hard-coded in command"]))
	_, err := Prepare(Spec{MemoryBytes: 512 * size.MiB, CPUs: 1, Java: java17}, a, "")
	if err == nil || !strings.Contains(err.Error(), "the descriptor's command runs "+temurin25) || strings.Contains(err.Error(), "\n") {
		t.Errorf("--java 17 with a command that runs 25: %v", err)
	}
}

// JVM options the command gives itself are planned around too: the plan
// adds no second -Xss where the command sets one.
func TestCommandOptionsArePlannedAround(t *testing.T) {
	needFixture(t)
	a := fixtureApp(t, "serve", 30*time.Second, "-Xss512k")
	// 320Mi: the planner counts the user's 128m metaspace cap whole, so it
	// refuses limits below about 246Mi with it.
	spec := prepared(t, a, Spec{MemoryBytes: 320 * size.MiB, CPUs: 1, JVM: "jvmfit"})
	if hasOption(spec.JVMOptions, "-Xss") || !hasOption(spec.JVMOptions, "-Xmx") {
		t.Errorf("plan %q: want an -Xmx and no -Xss beside the command's -Xss512k", spec.JVMOptions)
	}
}
