// Package launch applies a plan: it reads the variables launchers such as
// fabric8's run-java.sh understand, builds the java command line, and
// replaces the current process with the JVM.
package launch

import (
	"fmt"
	"strconv"
	"strings"
)

// Env is what the environment says about the launch.
type Env struct {
	JavaOptions  []string // JAVA_OPTIONS: added to the command line (run-java.sh)
	ToolOptions  []string // JAVA_TOOL_OPTIONS: read by the JVM itself
	JDKOptions   []string // JDK_JAVA_OPTIONS: read by the java launcher (9+)
	JavaOpts     []string // JAVA_OPTS: read by start scripts only (ScriptOptions)
	MaxMemRatio  float64  // JAVA_MAX_MEM_RATIO: heap as % of the limit
	InitMemRatio float64  // JAVA_INIT_MEM_RATIO: initial heap as % of the limit
	AppJar       string   // JAVA_APP_JAR: run with -jar when no main is given
	MainClass    string   // JAVA_MAIN_CLASS: run this class when no main is given
	Disabled     bool     // JVMFIT_DISABLE=1: run java exactly as asked
}

// ReadEnv reads the launcher variables through getenv (os.Getenv).
func ReadEnv(getenv func(string) string) (Env, error) {
	var e Env
	var err error
	for _, v := range []struct {
		name string
		dst  *[]string
	}{{"JAVA_OPTIONS", &e.JavaOptions}, {"JAVA_TOOL_OPTIONS", &e.ToolOptions}, {"JDK_JAVA_OPTIONS", &e.JDKOptions}, {"JAVA_OPTS", &e.JavaOpts}} {
		if *v.dst, err = SplitOptions(getenv(v.name)); err != nil {
			return Env{}, fmt.Errorf("%s: %w", v.name, err)
		}
	}
	for _, v := range []struct {
		name string
		dst  *float64
	}{{"JAVA_MAX_MEM_RATIO", &e.MaxMemRatio}, {"JAVA_INIT_MEM_RATIO", &e.InitMemRatio}} {
		s := strings.TrimSpace(getenv(v.name))
		if s == "" {
			continue
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f <= 0 || f > 100 {
			return Env{}, fmt.Errorf("%s=%q: give a percentage from 1 to 100", v.name, s)
		}
		*v.dst = f
	}
	e.AppJar = getenv("JAVA_APP_JAR")
	e.MainClass = getenv("JAVA_MAIN_CLASS")
	switch d := strings.ToLower(strings.TrimSpace(getenv("JVMFIT_DISABLE"))); d {
	case "", "0", "false", "no":
	default:
		e.Disabled = true
	}
	return e, nil
}

// UserOptions lists every JVM option the user gives, in the JVM's order of
// precedence (later wins): JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, then
// JAVA_OPTIONS and the command line's own options.
func (e Env) UserOptions(args []string) []string {
	var out []string
	out = append(out, e.ToolOptions...)
	out = append(out, e.JDKOptions...)
	out = append(out, e.JavaOptions...)
	opts, _ := SplitArgs(args)
	return append(out, opts...)
}

// SplitOptions cuts an options variable or a command-line fragment into
// words the way a POSIX shell would for quotes and backslashes (no
// expansion), so JAVA_OPTIONS or --jvm "-Dmsg='a b' -Xmx64m" gives two
// options.
func SplitOptions(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			cur.WriteRune(c)
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case quote == '"':
			switch c {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				cur.WriteRune(c)
			}
		case c == '\\':
			escaped, inWord = true, true
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote in %q", quote, s)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// takesValue are java launcher options whose value is the next argument.
var takesValue = map[string]bool{
	"-cp": true, "-classpath": true, "--class-path": true, "-p": true, "--module-path": true,
	"--upgrade-module-path": true, "--add-modules": true, "--add-opens": true, "--add-exports": true,
	"--add-reads": true, "--patch-module": true, "--limit-modules": true, "--enable-native-access": true,
}

// SplitArgs separates java's own options from the main class or jar and
// what follows it; hasMain reports whether a main was given.
func SplitArgs(args []string) (opts []string, hasMain bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-jar" || a == "-m" || a == "--module" || !strings.HasPrefix(a, "-"):
			return opts, true
		case takesValue[a]:
			i++
		default:
			opts = append(opts, a)
		}
	}
	return opts, false
}
