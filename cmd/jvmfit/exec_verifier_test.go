package main

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// The bytecode verifier stays on through the launcher: at every goal, on
// JDK 17 and 25, java's final flags keep both verifications on and nothing
// of jvmfit's turns them off; a user's own -XX:-BytecodeVerificationRemote
// reaches java as given, with one warning naming it.
func TestExecKeepsVerifierOn(t *testing.T) {
	for _, java := range []string{clitest.Java17, "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"} {
		prereq.Java(t, java)
		for _, goal := range []string{"footprint", "balanced", "throughput"} {
			out, errs, code := clitest.Run(t, nil, "exec", "--java", java, "--memory", "256Mi", "--cpus", "1", "--goal", goal,
				"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintFlagsFinal", "-version") // the verifier's flags are diagnostic
			if code != 0 {
				t.Fatalf("%s %s: exit %d\n%s", java, goal, code, errs)
			}
			f := finalFlags(out)
			for _, k := range []string{"BytecodeVerificationRemote", "BytecodeVerificationLocal"} {
				if strings.Contains(f[k][1], "{command line}") {
					t.Errorf("%s %s: jvmfit set %s on java's command line", java, goal, k)
				}
			}
			if f["BytecodeVerificationRemote"][0] != "true" {
				t.Errorf("%s %s: BytecodeVerificationRemote = %q, want the JDK's true", java, goal, f["BytecodeVerificationRemote"][0])
			}
			if strings.Contains(errs, "verifier") {
				t.Errorf("%s %s: a verifier warning with no option of the user's:\n%s", java, goal, errs)
			}
		}
	}
	out, errs, code := clitest.Run(t, nil, "exec", "--java", clitest.Java17, "--memory", "256Mi", "--cpus", "1",
		"-XX:+UnlockDiagnosticVMOptions", "-XX:-BytecodeVerificationRemote", "-XX:+PrintFlagsFinal", "-version")
	if code != 0 {
		t.Fatalf("user's -XX:-BytecodeVerificationRemote: exit %d\n%s", code, errs)
	}
	if f := finalFlags(out); f["BytecodeVerificationRemote"][0] != "false" {
		t.Errorf("user's -XX:-BytecodeVerificationRemote: java has %q; want it passed through", f["BytecodeVerificationRemote"][0])
	}
	var warn []string
	for _, l := range strings.Split(errs, "\n") {
		if strings.Contains(l, "verifier") {
			warn = append(warn, l)
		}
	}
	if len(warn) != 1 || !strings.HasPrefix(warn[0], "jvmfit: warning: ") || !strings.Contains(warn[0], "-XX:-BytecodeVerificationRemote") {
		t.Errorf("stderr %q; want one warning line naming the user's option", errs)
	}
}
