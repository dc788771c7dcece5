package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// oneLineExit2 asserts a usage error: exit 2, nothing on stdout, one line
// on stderr starting with "jvmfit: " and holding want.
func oneLineExit2(t *testing.T, name, out, errs string, code int, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != 2 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "jvmfit: ") || !strings.Contains(errs, want) {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", name, code, out, errs, want)
	}
}

func TestUnknownCommandAndStrayArguments(t *testing.T) {
	out, errs, code := clitest.Run(t, nil, "frobnicate")
	oneLineExit2(t, "unknown command", out, errs, code, `unknown command "frobnicate"`)
	out, errs, code = clitest.Run(t, nil, "flgs")
	oneLineExit2(t, "typo of a command", out, errs, code, "did you mean 'flags'?")
	out, errs, code = clitest.Run(t, nil, "flags", "--memory", "512Mi", "Xmx300m")
	oneLineExit2(t, "flags stray", out, errs, code, `stray argument "Xmx300m"`)
	out, errs, code = clitest.Run(t, nil, "flags", "--memory", "512Mi", "--", "Xmx300m")
	oneLineExit2(t, "flags non-option after --", out, errs, code, `"Xmx300m" after -- is not a java option`)
	// Every other command: a stray argument is refused before any work.
	for _, c := range newRoot().Commands() {
		switch c.Name() {
		case "flags", "exec", "help", "completion":
			continue
		}
		out, errs, code := clitest.Run(t, nil, c.Name(), "stray1", "stray2")
		oneLineExit2(t, c.Name()+" stray", out, errs, code, "stray1")
	}
	// Without arguments the root still prints its help, exit 0.
	if out, _, code := clitest.Run(t, nil); code != 0 || !strings.Contains(out, "Available Commands") {
		t.Errorf("jvmfit alone: exit %d, %q", code, out)
	}
}

func TestExecOwnFlagsEndAtJavasArguments(t *testing.T) {
	clitest.NeedJava(t)
	// A typo of jvmfit's flag is refused, not handed to java.
	out, errs, code := clitest.Run(t, nil, "exec", "--java", clitest.Java17, "--memroy", "512Mi", "-version")
	oneLineExit2(t, "exec typo", out, errs, code, "unknown flag --memroy: did you mean --memory?")
	if strings.Contains(errs, "openjdk") {
		t.Errorf("java ran with the typo: %s", errs)
	}
	out, errs, code = clitest.Run(t, nil, "exec", "--java", clitest.Java17, "--frobnicate", "-version")
	oneLineExit2(t, "exec unknown flag", out, errs, code, "unknown flag --frobnicate")
	// java's own -- options end jvmfit's flags and reach java.
	_, errs, code = clitest.Run(t, nil, "exec", "--java", clitest.Java17, "--memory", "512Mi", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-version")
	if code != 0 || !strings.Contains(errs, "openjdk version") {
		t.Errorf("--add-opens before -version: exit %d %s", code, errs)
	}
	// After --, a -- word is java's.
	out, errs, code = clitest.Run(t, nil, "exec", "--memory", "512Mi", "--", clitest.Java17, "--show-version", "-version")
	if code != 0 || !strings.Contains(out, "openjdk 17") {
		t.Errorf("after --: exit %d %s %s", code, out, errs)
	}
	out, _, code = clitest.Run(t, nil, "exec", "--help")
	for _, f := range []string{"--memory", "--cpus", "--cpuset", "--goal", "--profile", "--explain", "--strict", "--java"} {
		if code != 0 || !strings.Contains(out, f) {
			t.Errorf("exec --help lacks %s (exit %d):\n%s", f, code, out)
		}
	}
}

func TestCPUsAboveTheHostPlanForThem(t *testing.T) {
	clitest.NeedJava(t)
	n := runtime.NumCPU()*2 + 2
	out, errs, code := clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--memory", "1Gi", "--cpus", fmt.Sprint(n), "--format", "json")
	var p struct {
		CPUCount int      `json:"cpuCount"`
		Options  []string `json:"options"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &p) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if p.CPUCount != n || !strings.Contains(strings.Join(p.Options, " "), fmt.Sprintf("-XX:ParallelGCThreads=%d", parallelGC(n))) {
		t.Errorf("--cpus %d planned for %d CPUs: %v", n, p.CPUCount, p.Options)
	}
	if !strings.Contains(errs, "jvmfit: note: --cpus") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("no one-line note for --cpus above the host: %q", errs)
	}
	// --cpuset already did so; both agree.
	out, _, _ = clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--memory", "1Gi", "--cpuset", fmt.Sprintf("0-%d", n-1), "--format", "json")
	var q struct {
		CPUCount int `json:"cpuCount"`
	}
	if json.Unmarshal([]byte(out), &q) != nil || q.CPUCount != n {
		t.Errorf("--cpuset 0-%d: %d CPUs", n-1, q.CPUCount)
	}
}

// parallelGC is HotSpot's ParallelGCThreads for n CPUs.
func parallelGC(n int) int {
	if n <= 8 {
		return n
	}
	return 8 + (n-8)*5/8
}

const argsProgSrc = `public class Args {
  public static void main(String[] a) {
    System.out.println(String.join(" ", java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
  }
}`

// flags and exec make one plan from the same user options: the same
// options and the same warning line.
func TestFlagsAndExecSamePlanAndWarning(t *testing.T) {
	clitest.NeedJava(t)
	src := filepath.Join(t.TempDir(), "Args.java")
	if err := os.WriteFile(src, []byte(argsProgSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []string
		user []string
	}{
		{[]string{"JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=75"}, nil},
		{nil, []string{"-Xmx350m"}},
		{nil, []string{"-Xmx256m"}},
	} {
		fl, ferrs, fcode := clitest.Run(t, c.env, append([]string{"flags", "--java", clitest.Java17, "--memory", "512Mi", "--cpus", "1", "--"}, c.user...)...)
		ex, eerrs, ecode := clitest.Run(t, c.env, append(append([]string{"exec", "--memory", "512Mi", "--cpus", "1", "--", clitest.Java17}, c.user...), src)...)
		if fcode != 0 || ecode != 0 {
			t.Fatalf("%v %v: flags exit %d, exec exit %d: %s %s", c.env, c.user, fcode, ecode, ferrs, eerrs)
		}
		if !strings.Contains(ex, strings.TrimSpace(fl)) {
			t.Errorf("%v %v: exec's java got %q, flags printed %q", c.env, c.user, ex, fl)
		}
		if warning(ferrs) != warning(eerrs) {
			t.Errorf("%v %v: flags warns %q, exec %q", c.env, c.user, warning(ferrs), warning(eerrs))
		}
	}
}

func warning(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "jvmfit: warning:") {
			return l
		}
	}
	return ""
}

func TestStrictRefusesWhereExecWarns(t *testing.T) {
	clitest.NeedJava(t)
	for _, user := range []string{"-Xmx350m", "-Xmx300m", "-Xmx768m"} {
		mem := "512Mi"
		if user == "-Xmx768m" {
			mem = "1Gi"
		}
		_, errs, code := clitest.Run(t, nil, "exec", "--memory", mem, "--", clitest.Java17, user, "-version")
		if code != 0 || warning(errs) == "" || !strings.Contains(errs, "openjdk version") {
			t.Errorf("%s at %s: exit %d, want java started with a warning: %s", user, mem, code, errs)
		}
		out, errs, code := clitest.Run(t, nil, "exec", "--strict", "--memory", mem, "--", clitest.Java17, user, "-version")
		oneLineExit2(t, "--strict "+user, out, errs, code, mem)
	}
}

// A command that is not java gets the plan through JDK_JAVA_OPTIONS, in
// front of the user's own; JVMFIT_DISABLE=1 runs it unchanged.
func TestExecRunsAStartScript(t *testing.T) {
	clitest.NeedJava(t)
	show := []string{"exec", "--java", clitest.Java17, "--memory", "512Mi", "--", "/bin/sh", "-c", `echo "$JDK_JAVA_OPTIONS"`}
	out, errs, code := clitest.Run(t, []string{"JDK_JAVA_OPTIONS=-Xss1m"}, show...)
	if code != 0 || !strings.Contains(out, "-XX:+ExitOnOutOfMemoryError") || !strings.HasSuffix(strings.TrimSpace(out), "-Xss1m") {
		t.Errorf("script: exit %d, JDK_JAVA_OPTIONS %q %s", code, out, errs)
	}
	if strings.Contains(out, "-Xss512k") {
		t.Errorf("jvmfit's -Xss beside the user's: %q", out)
	}
	out, _, code = clitest.Run(t, []string{"JVMFIT_DISABLE=1", "JDK_JAVA_OPTIONS=-Xss1m"}, show...)
	if code != 0 || strings.TrimSpace(out) != "-Xss1m" {
		t.Errorf("disabled: exit %d, JDK_JAVA_OPTIONS %q", code, out)
	}
}
