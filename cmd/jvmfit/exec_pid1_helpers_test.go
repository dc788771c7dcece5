package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// execFinal runs `jvmfit exec ARGS... -XX:+PrintFlagsFinal -version` on
// JDK 17 with env and returns java's final flags, its stdout, jvmfit's
// and java's stderr, and the exit code.
func execFinal(t *testing.T, env []string, args ...string) (map[string][2]string, string, string, int) {
	t.Helper()
	clitest.NeedJava(t)
	args = append(append([]string{"exec", "--java", clitest.Java17}, args...), "-XX:+PrintFlagsFinal", "-version")
	out, errs, code := clitest.Run(t, env, args...)
	return finalFlags(out), out, errs, code
}

// ccstrFlag is a string flag's value in -XX:+PrintFlagsFinal output, which
// may hold spaces (finalFlags splits on them).
func ccstrFlag(out, name string) string {
	re := regexp.MustCompile(`(?m)^\s*ccstr\s+` + regexp.QuoteMeta(name) + `\s+= (.*?)\s+\{[a-z ]+\} \{[a-z ]+\}$`)
	if m := re.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// setByJvmfit lists the flags java took from its command line, where
// jvmfit puts its options, other than the test's own PrintFlagsFinal.
func setByJvmfit(flags map[string][2]string) []string {
	var set []string
	for k, v := range flags {
		if strings.Contains(v[1], "{command line}") && k != "PrintFlagsFinal" {
			set = append(set, k)
		}
	}
	return set
}
