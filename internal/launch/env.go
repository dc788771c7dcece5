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
	JavaOptions []string // JAVA_OPTIONS: added to the command line (run-java.sh), split as shell words
	// JAVA_TOOL_OPTIONS and _JAVA_OPTIONS are read by the JVM itself, the
	// first before the command line, the second after it; both split as
	// HotSpot splits them (hotspot.go).
	ToolOptions, LastOptions []string
	// JDKOptions is JDK_JAVA_OPTIONS as given: the java launcher (9+)
	// splits it together with the command line (LauncherArgs), since an
	// @argfile in either shares one expansion.
	JDKOptions   string
	JavaOpts     []string // JAVA_OPTS: read by start scripts only (ScriptOptions)
	MaxMemRatio  float64  // JAVA_MAX_MEM_RATIO: heap as % of the limit
	InitMemRatio float64  // JAVA_INIT_MEM_RATIO: initial heap as % of the limit
	AppJar       string   // JAVA_APP_JAR: run with -jar when no main is given
	MainClass    string   // JAVA_MAIN_CLASS: run this class when no main is given
	Disabled     bool     // JVMFIT_DISABLE=1: run java exactly as asked
}

// Disabled says whether JVMFIT_DISABLE is set (to anything but "", 0,
// false or no). exec reads it before any other variable, so that nothing
// it cannot read stops a start it was told to leave alone.
func Disabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv("JVMFIT_DISABLE"))) {
	case "", "0", "false", "no":
		return false
	}
	return true
}

// ReadEnv reads the launcher variables through getenv (os.Getenv).
func ReadEnv(getenv func(string) string) (Env, error) {
	e := Env{JDKOptions: getenv("JDK_JAVA_OPTIONS"), Disabled: Disabled(getenv)}
	var err error
	for _, v := range []struct {
		name string
		dst  *[]string
	}{{"JAVA_OPTIONS", &e.JavaOptions}, {"JAVA_OPTS", &e.JavaOpts}} {
		if *v.dst, err = SplitOptions(getenv(v.name)); err != nil {
			return Env{}, fmt.Errorf("%s: %w", v.name, err)
		}
	}
	for _, v := range []struct {
		name string
		dst  *[]string
	}{{"JAVA_TOOL_OPTIONS", &e.ToolOptions}, {"_JAVA_OPTIONS", &e.LastOptions}} {
		if *v.dst, err = SplitVMOptions(v.name, getenv(v.name)); err != nil {
			return Env{}, err
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
	return e, nil
}

// UserOptions lists every JVM option the user gives java, in the JVM's
// order of precedence (later wins; options.go): with args as java's
// command line after jvmfit's options (JAVA_OPTIONS goes in front of it).
func (e Env) UserOptions(args []string) ([]string, error) {
	return e.vmOptions(append(append([]string(nil), e.JavaOptions...), args...))
}

// SplitOptions cuts an options variable or a command-line fragment into
// words the way a POSIX shell would for quotes and backslashes (no
// expansion), so JAVA_OPTIONS or --jvm "-Dmsg='a b' -Xmx64m" gives two
// options. It is for jvmfit's own variables and flags, which jvmfit puts
// on java's command line word by word; what java or the JVM reads itself
// is split as they split it (SplitVMOptions, LauncherArgs).
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

// takesValue are java launcher options whose value is the next argument
// (java.c, IsWhiteSpaceOption, less -jar, -m and --module, whose next
// argument is the main).
var takesValue = map[string]bool{
	"-cp": true, "-classpath": true, "--class-path": true, "-p": true, "--module-path": true,
	"--upgrade-module-path": true, "--add-modules": true, "--add-opens": true, "--add-exports": true,
	"--add-reads": true, "--patch-module": true, "--limit-modules": true, "--enable-native-access": true,
	"--describe-module": true, "-d": true, "--source": true,
}

// SplitArgs separates java's own options from the main class or jar and
// what follows it; hasMain reports whether a main was given.
func SplitArgs(args []string) (opts []string, hasMain bool) {
	opts, at := splitAt(args)
	return opts, at < len(args)
}

// MainArgs is the main (a class, -jar JAR, -m MODULE) and what follows it;
// empty when args name none.
func MainArgs(args []string) []string {
	_, at := splitAt(args)
	return args[at:]
}

// splitAt is SplitArgs with the main's index (len(args): none).
func splitAt(args []string) (opts []string, at int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-jar" || a == "-m" || a == "--module" || !strings.HasPrefix(a, "-"):
			return opts, i
		case takesValue[a]:
			i++
		default:
			opts = append(opts, a)
		}
	}
	return opts, len(args)
}
