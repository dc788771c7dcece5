package app

import (
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Values fill a descriptor's placeholders for one trial.
type Values struct {
	Java       string
	JVMOptions []string          // the trial's options, after the descriptor's own
	Port       int               // 0: Expand picks a free loopback port
	Exports    map[string]string // service exports, e.g. db_port
}

// Launch is a descriptor expanded for one trial: ready to exec.
type Launch struct {
	Argv  []string
	Env   []string // full environment, KEY=VALUE
	Dir   string
	Ready string
	Port  int
}

// ignoredEnv would change the JVM's options behind the trial's back, so the
// app never inherits them from jvmfit's environment.
var ignoredEnv = []string{"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"}

// Expand builds the command line, environment and readiness URL. The
// descriptor's jvm_options come first and v.JVMOptions after them, so the
// trial's own choice wins where the JVM takes the last occurrence.
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
	opts := append(append([]string{}, a.JVMOptions...), v.JVMOptions...)
	vars["jvm_options"] = strings.Join(opts, " ")
	sub := func(s string) string {
		return placeholder().ReplaceAllStringFunc(s, func(m string) string {
			return vars[m[2:len(m)-1]]
		})
	}

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
		argv = append(append([]string{v.Java}, opts...), "-jar", a.Jar)
	default:
		argv = append(append([]string{v.Java}, opts...), "-cp", a.Classpath, a.MainClass)
	}
	if len(a.Command) == 0 {
		for _, arg := range a.Args {
			argv = append(argv, sub(arg))
		}
	}
	if len(argv) == 0 || argv[0] == "" {
		return Launch{}, fmt.Errorf("%s: no java binary to run: give --java PATH", a.where())
	}

	env := inheritedEnv()
	keys := make([]string, 0, len(a.Env))
	for k := range a.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+sub(a.Env[k]))
	}
	return Launch{Argv: argv, Env: env, Dir: a.Dir, Ready: sub(a.Ready), Port: port}, nil
}

func (a *App) where() string {
	if a.File != "" {
		return a.File
	}
	return a.Name
}

func inheritedEnv() []string {
	var out []string
next:
	for _, kv := range os.Environ() {
		for _, bad := range ignoredEnv {
			if strings.HasPrefix(kv, bad+"=") {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// FreePort asks the kernel for an unused loopback port. Another process
// could take it before the app binds; trials are short-lived and on
// loopback, so the window is small and a clash shows as not-ready.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("cannot find a free loopback port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
