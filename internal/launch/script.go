package launch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// A command that is not java (a start script, `sh -c 'java $JAVA_OPTS
// ...'`) runs java itself, with JAVA_OPTS on its command line by custom.
// jvmfit cannot put its options on that command line, so it hands them to
// every java the command starts through the launcher's own variable,
// JDK_JAVA_OPTIONS (JAVA_TOOL_OPTIONS on JDK 8, which has none), placed
// before what the user's variable holds. The java command line, where
// JAVA_OPTS lands, is read after both: the user's options still win, and
// the plan is made around JAVA_OPTS too (Env.ScriptOptions).

// IsCommand reports whether a, the first of exec's arguments, is a
// program to run rather than java's first argument: an executable file
// named by a path, or a program on PATH, that is not a java launcher.
func IsCommand(a string) bool {
	if a == "" || strings.HasPrefix(a, "-") || filepath.Base(a) == "java" {
		return false
	}
	if strings.HasSuffix(a, ".jar") || strings.HasSuffix(a, ".java") || strings.HasSuffix(a, ".class") {
		return false
	}
	if strings.Contains(a, "/") {
		st, err := os.Stat(a)
		return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
	}
	_, err := exec.LookPath(a)
	return err == nil
}

// ScriptOptions lists the JVM options the user gives a command that runs
// java itself: UserOptions' sources, with JAVA_OPTS as java's command
// line.
func (e Env) ScriptOptions() ([]string, error) {
	return e.UserOptions(e.JavaOpts)
}

// ScriptEnviron is base with the plan's options in front of the user's
// JDK_JAVA_OPTIONS (JAVA_TOOL_OPTIONS before JDK 9) and the plan's
// variables added (launch.Environ).
func ScriptEnviron(base []string, p *plan.Plan, jdkVersion int) []string {
	name := "JDK_JAVA_OPTIONS"
	if jdkVersion < 9 {
		name = "JAVA_TOOL_OPTIONS"
	}
	ours := plan.ShellJoin(p.Options)
	out := make([]string, 0, len(base)+2)
	set := false
	for _, kv := range Environ(base, p) {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			kv, set = name+"="+strings.TrimSpace(ours+" "+v), true
		}
		out = append(out, kv)
	}
	if !set && ours != "" {
		out = append(out, name+"="+ours)
	}
	return out
}
