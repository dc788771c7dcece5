package launch

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// Argv builds the java command line: java, the plan's options (nil plan:
// none), JAVA_OPTIONS, then the user's arguments, which win over both.
// When args name no main class or jar, JAVA_APP_JAR or JAVA_MAIN_CLASS is
// added.
func Argv(javaPath string, p *plan.Plan, env Env, args []string) ([]string, error) {
	argv := []string{javaPath}
	if p != nil {
		argv = append(argv, p.Options...)
	}
	argv = append(argv, env.JavaOptions...)
	argv = append(argv, args...)
	if _, hasMain := SplitArgs(args); !hasMain {
		switch {
		case env.AppJar != "":
			argv = append(argv, "-jar", env.AppJar)
		case env.MainClass != "":
			argv = append(argv, env.MainClass)
		case len(args) == 0:
			return nil, fmt.Errorf("nothing to run: give java arguments (e.g. -jar app.jar) or set JAVA_APP_JAR or JAVA_MAIN_CLASS")
		}
	}
	return argv, nil
}

// Environ adds the plan's variables to base, unless base already sets them.
func Environ(base []string, p *plan.Plan) []string {
	if p == nil {
		return append([]string(nil), base...)
	}
	return AddEnv(base, p.Env)
}

// AddEnv adds vars to base (KEY=VALUE), in key order, except those base
// already sets: the environment the user gives wins over a plan's. It is
// the one rule for both jvmfit exec and trials.
func AddEnv(base []string, vars map[string]string) []string {
	out := append([]string(nil), base...)
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set := false
		for _, kv := range base {
			if strings.HasPrefix(kv, k+"=") {
				set = true
				break
			}
		}
		if !set {
			out = append(out, k+"="+vars[k])
		}
	}
	return out
}

// Exec replaces this process with argv, so the JVM keeps our pid (PID 1 in
// a container), receives signals directly and its exit code is final.
func Exec(argv, environ []string) error {
	err := syscall.Exec(argv[0], argv, environ)
	return fmt.Errorf("cannot exec %s: %w", argv[0], err)
}

// Getenv is os.Getenv, named for ReadEnv callers.
var Getenv = os.Getenv
