package main

import (
	"strings"
	"testing"
)

// The user's options are read as HotSpot reads them: JAVA_TOOL_OPTIONS,
// _JAVA_OPTIONS and JDK_JAVA_OPTIONS split on any C whitespace, quotes
// group, a backslash is a plain character. An -Xmx jvmfit misreads is one
// it does not see, and its own -Xmx on the command line then wins over
// the user's (JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS come before it).
func TestExecSplitsLikeHotSpot(t *testing.T) {
	for _, c := range []struct {
		name, env string
		mem, heap string
		warn      bool // the user's heap leaves metaspace no room: one warning, no cap
	}{
		{name: "backslash before a space, JAVA_TOOL_OPTIONS", env: `JAVA_TOOL_OPTIONS=-Dx=a\ -Xmx200m`, mem: "1Gi", heap: "209715200"},
		{name: "backslash before a space, JDK_JAVA_OPTIONS", env: `JDK_JAVA_OPTIONS=-Dx=a\ -Xmx200m`, mem: "1Gi", heap: "209715200"},
		{name: "a vertical tab separates", env: "JAVA_TOOL_OPTIONS=-Dx=a\v-Xmx200m", mem: "1Gi", heap: "209715200"},
		{name: "a backslash before a closing quote", env: `JAVA_TOOL_OPTIONS=-Dx="C:\dir\" -Xmx200m`, mem: "1Gi", heap: "209715200"},
		{name: "a quote inside a word", env: `JDK_JAVA_OPTIONS=-Dx='a b'c -Xm"x2"00m`, mem: "1Gi", heap: "209715200"},
		{name: "_JAVA_OPTIONS, read after the command line", env: "_JAVA_OPTIONS=-Xmx350m", mem: "512Mi", heap: "367001600", warn: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			flags, _, errs, code := execFinal(t, []string{c.env}, "--memory", c.mem, "--cpus", "1")
			if code != 0 {
				t.Fatalf("exit %d\nstderr:\n%s", code, errs)
			}
			if got := flags["MaxHeapSize"][0]; got != c.heap {
				t.Errorf("MaxHeapSize %s, want the user's %s\nstderr:\n%s", got, c.heap, errs)
			}
			if w := strings.Contains(errs, "jvmfit: warning:"); w != c.warn {
				t.Errorf("warning %v, want %v: the plan was not made around the user's heap\nstderr:\n%s", w, c.warn, errs)
			}
			if c.warn && strings.Contains(flags["MaxMetaspaceSize"][1], "{command line}") {
				t.Errorf("metaspace capped at %s where the user's heap leaves it no room", flags["MaxMetaspaceSize"][0])
			}
		})
	}
}
