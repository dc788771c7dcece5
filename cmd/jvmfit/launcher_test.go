package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

func TestFlagsBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "jdk", "bin", "java")
	os.MkdirAll(filepath.Dir(fake), 0o755)
	os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	os.Mkdir(filepath.Join(dir, "jdk", "release"), 0o755) // unreadable as a file
	cases := map[string][]string{
		"bad size":      {"flags", "--java", clitest.Java17, "--memory", "12X"},
		"zero cpus":     {"flags", "--java", clitest.Java17, "--cpus", "0"},
		"negative cpus": {"flags", "--java", clitest.Java17, "--cpus=-2"},
		"bad cpuset":    {"flags", "--java", clitest.Java17, "--cpuset", "3-1"},
		"unknown goal":  {"flags", "--java", clitest.Java17, "--goal", "fast"},
		"bad format":    {"flags", "--java", clitest.Java17, "--format", "xml"},
		"missing java":  {"flags", "--java", filepath.Join(dir, "nope")},
		"bad release":   {"flags", "--java", fake},
		"too small":     {"flags", "--java", clitest.Java17, "--strict", "--memory", "12Mi"},
		"bad profile":   {"flags", "--java", clitest.Java17, "--profile", filepath.Join(dir, "none.json")},
		"exec bad flag": {"exec", "--java", clitest.Java17, "--memory", "1x", "-version"},
	}
	for name, args := range cases {
		out, errs, code := clitest.Run(t, nil, args...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "jvmfit: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line", name, code, out, errs)
		}
	}
	_, errs, _ := clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--strict", "--memory", "12Mi")
	if !strings.Contains(errs, "smallest limit accepted") {
		t.Errorf("refusal does not name the smallest limit: %s", errs)
	}
}

func TestFlagsOutputAndPrecedence(t *testing.T) {
	clitest.NeedJava(t)
	out, errs, code := clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--memory", "256Mi", "--cpus", "1")
	if code != 0 || !strings.Contains(out, "-XX:+UseSerialGC") || strings.Count(out, "\n") != 1 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	out, _, _ = clitest.Run(t, []string{"JAVA_TOOL_OPTIONS=-Xmx100m -XX:+UseParallelGC"}, "flags", "--java", clitest.Java17, "--memory", "256Mi", "--cpus", "1")
	if strings.Contains(out, "-Xmx") || strings.Contains(out, "UseSerialGC") {
		t.Errorf("JAVA_TOOL_OPTIONS did not win: %s", out)
	}
	// The one override rule: a heap the user gives as MaxRAM is the heap,
	// so jvmfit gives no -Xmx that the JVM would take over it.
	out, _, _ = clitest.Run(t, []string{"JAVA_TOOL_OPTIONS=-XX:MaxRAM=400m"}, "flags", "--java", clitest.Java17, "--memory", "512Mi", "--cpus", "1")
	if strings.Contains(out, "-Xmx") || !strings.Contains(out, "-XX:MaxMetaspaceSize=") {
		t.Errorf("JAVA_TOOL_OPTIONS' MaxRAM did not win for the heap: %s", out)
	}
	out, _, _ = clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--memory", "256Mi", "--explain")
	for _, w := range []string{"OPTION", "REASON", "headroom", "MaxMetaspaceSize"} {
		if !strings.Contains(out, w) {
			t.Errorf("--explain lacks %s", w)
		}
	}
	for _, f := range []string{"json", "java-tool-options", "dockerfile", "k8s"} {
		if out, errs, code := clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--memory", "1G", "--format", f); code != 0 || !strings.Contains(out, "-Xmx") {
			t.Errorf("--format %s: %d %s %s", f, code, out, errs)
		}
	}
	// Fixture tree: detection through --root.
	root, _ := filepath.Abs("../../internal/cgroup/testdata/limits/v1-parent")
	out, errs, code = clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--root", root, "--format", "json")
	if code != 0 || !strings.Contains(out, `"limitBytes": 268435456`) || !strings.Contains(out, "-XX:ActiveProcessorCount=1") {
		t.Errorf("fixture detection: %d %s %s", code, out, errs)
	}
}

const progSrc = `public class Prog {
  public static void main(String[] a) throws Exception {
    System.out.println("pid " + ProcessHandle.current().pid());
    System.out.println("heap " + Runtime.getRuntime().maxMemory());
    System.out.flush();
    if (a[0].equals("sleep")) Thread.sleep(60000);
    System.exit(Integer.parseInt(a[0]));
  }
}`

func writeProg(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "Prog.java")
	if err := os.WriteFile(p, []byte(progSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExecPassesExitCode(t *testing.T) {
	clitest.NeedJava(t)
	prog := writeProg(t)
	out, errs, code := clitest.Run(t, nil, "exec", "--memory", "256Mi", "--cpus", "1", "--", clitest.Java17, prog, "7")
	if code != 7 || !strings.Contains(out, "pid ") {
		t.Fatalf("exit %d, want 7: %s %s", code, out, errs)
	}
	// JAVA_APP_JAR/JAVA_MAIN_CLASS style: -jar-less source file via JAVA_MAIN_CLASS is not
	// possible, so check JVMFIT_DISABLE runs java unchanged instead.
	out, _, code = clitest.Run(t, []string{"JVMFIT_DISABLE=1", "JAVA_OPTIONS=-Xmx64m"}, "exec", "--memory", "256Mi", "--", clitest.Java17, prog, "3")
	if code != 3 || !strings.Contains(out, "heap ") {
		t.Fatalf("disabled: exit %d %s", code, out)
	}
}

func TestExecIsTheJVMAndPassesSIGTERM(t *testing.T) {
	clitest.NeedJava(t)
	prog := writeProg(t)
	cmd := clitest.Cmd(t, nil, "exec", "--memory", "256Mi", "--cpus", "1", clitest.Java17, prog, "sleep")
	pr, pw, _ := os.Pipe()
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 4096)
	got := ""
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(got, "heap ") && time.Now().Before(deadline) {
		n, err := pr.Read(buf)
		got += string(buf[:n])
		if err != nil {
			break
		}
	}
	if !strings.Contains(got, "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("the JVM is not the process we started (pid %d): %q", cmd.Process.Pid, got)
	}
	if !strings.Contains(got, "heap ") {
		t.Fatalf("no heap line: %q", got)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Fatalf("after SIGTERM: %v, want exit 143 (the JVM's own)", err)
	}
}
