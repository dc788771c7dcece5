package main

import (
	"strings"
	"testing"
)

// JVMFIT_DISABLE is read before anything else: variables jvmfit cannot
// read (a JAVA_TOOL_OPTIONS only HotSpot's rules split, a ratio that is
// no number) do not stop the start, and java gets the command as given,
// none of jvmfit's options.
func TestExecDisableBeforeParsing(t *testing.T) {
	env := []string{"JVMFIT_DISABLE=1", `JAVA_TOOL_OPTIONS=-XX:ErrorFile="/tmp/jvmfit h36\"`, "JAVA_MAX_MEM_RATIO=lots"}
	flags, out, errs, code := execFinal(t, env)
	if code != 0 {
		t.Fatalf("exit %d, want java's 0: JVMFIT_DISABLE must start java whatever the variables hold\nstderr:\n%s", code, errs)
	}
	if got := ccstrFlag(out, "ErrorFile"); got != `/tmp/jvmfit h36\` {
		t.Errorf("ErrorFile %q: java did not get JAVA_TOOL_OPTIONS as given", got)
	}
	if set := setByJvmfit(flags); len(set) != 0 {
		t.Errorf("JVMFIT_DISABLE, yet java's command line set %v", set)
	}
	if strings.Contains(errs, "jvmfit:") {
		t.Errorf("jvmfit said something though disabled:\n%s", errs)
	}
}
