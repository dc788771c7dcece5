package app

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Values fill a descriptor's placeholders for one trial.
type Values struct {
	Java       string
	JVMOptions []string // all the JVM's options, the descriptor's jvm_options among them

	Port    int               // 0: Expand picks a free loopback port
	Exports map[string]string // service exports, e.g. db_port
}

// Launch is a descriptor expanded for one trial: ready to exec.
type Launch struct {
	Argv  []string
	Env   []string // full environment, KEY=VALUE
	Set   []string // what the descriptor's env sets in it, KEY=VALUE (for echoing)
	Dir   string
	Ready string
	Port  int
}

// ignoredEnv would change the JVM's options behind the trial's back, so the
// app never inherits them from jvmfit's environment.
var ignoredEnv = []string{"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"}

// Expand builds the command line, environment and readiness URL.
// v.JVMOptions are all the options the JVM gets: the caller has already
// placed the descriptor's jvm_options among them (jvmopts.Resolve, by the
// one override rule), so Expand does not add them again. Placeholders are
// expanded everywhere: command, args, JVM options, env and ready.
func (a *App) Expand(v Values) (Launch, error) {
	port := a.Port
	if port == 0 {
		port = v.Port
	}
	if port == 0 {
		p, err := FreePort()
		if err != nil {
			return Launch{}, err
		}
		port = p
	}
	vars := map[string]string{"java": v.Java, "port": strconv.Itoa(port)}
	for k, val := range v.Exports {
		vars[k] = val
	}
	sub := func(s string) string {
		return placeholder().ReplaceAllStringFunc(s, func(m string) string {
			return vars[m[2:len(m)-1]]
		})
	}
	opts := make([]string, len(v.JVMOptions))
	for i, o := range v.JVMOptions {
		opts[i] = sub(o)
	}
	vars["jvm_options"] = strings.Join(opts, " ")

	keys := make([]string, 0, len(a.Env))
	for k := range a.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var set []string
	for _, k := range keys {
		set = append(set, k+"="+sub(a.Env[k]))
	}
	if a.Image != "" {
		return a.imageLaunch(opts, set, sub, port), nil
	}
	argv := a.argv(v.Java, opts, sub)
	if len(argv) == 0 || argv[0] == "" {
		return Launch{}, fmt.Errorf("%s: no java binary to run: give --java PATH", a.where())
	}
	env := append(inheritedEnv(set), set...)
	return Launch{Argv: argv, Env: env, Set: set, Dir: a.Dir, Ready: sub(a.Ready), Port: port}, nil
}

// argv is the command line: the command (${jvm_options} expands to one
// word per option), or java with the options and the jar or main class;
// then args, which follow a command as they follow a jar.
func (a *App) argv(java string, opts []string, sub func(string) string) []string {
	var argv []string
	switch {
	case len(a.Command) > 0:
		for _, c := range a.Command {
			if c == "${jvm_options}" {
				argv = append(argv, opts...)
				continue
			}
			argv = append(argv, sub(c))
		}
	case a.Jar != "":
		argv = append(append([]string{java}, opts...), "-jar", a.Jar)
	default:
		argv = append(append([]string{java}, opts...), "-cp", a.Classpath, a.MainClass)
	}
	for _, arg := range a.Args {
		argv = append(argv, sub(arg))
	}
	return argv
}

func (a *App) where() string {
	if a.File != "" {
		return a.File
	}
	return a.Name
}

// inheritedEnv is jvmfit's environment less the JVM option variables and
// less what the descriptor sets itself (set, KEY=VALUE), so that each
// variable appears once.
func inheritedEnv(set []string) []string {
	drop := append([]string{}, ignoredEnv...)
	for _, kv := range set {
		k, _, _ := strings.Cut(kv, "=")
		drop = append(drop, k)
	}
	var out []string
next:
	for _, kv := range os.Environ() {
		for _, bad := range drop {
			if strings.HasPrefix(kv, bad+"=") {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
