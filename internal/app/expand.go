package app

import (
	"fmt"
	"net/url"
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
	// ManagementPort is the second free port given as ${management_port}
	// to an app whose health endpoints have a port of their own (0 when
	// the descriptor does not use it).
	ManagementPort int
	// Base is where the load goes: the readiness URL's scheme and host on
	// the app's port (${port}), also when readiness is on the management
	// port.
	Base string
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
	mport := 0
	if a.UsesVar(ManagementPortVar) {
		p, err := otherFreePort(port)
		if err != nil {
			return Launch{}, err
		}
		mport = p
		vars["management_port"] = strconv.Itoa(p)
	}
	sub := func(s string) string {
		return placeholder().ReplaceAllStringFunc(s, func(m string) string {
			return vars[m[2:len(m)-1]]
		})
	}
	base := baseOf(sub(strings.ReplaceAll(a.Ready, ManagementPortVar, "${port}")))
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
		l := a.imageLaunch(opts, set, sub, port)
		l.ManagementPort, l.Base = mport, base
		return l, nil
	}
	argv := a.argv(v.Java, opts, sub)
	if len(argv) == 0 || argv[0] == "" {
		return Launch{}, fmt.Errorf("%s: no java binary to run: give --java PATH", a.where())
	}
	env := append(inheritedEnv(set), set...)
	return Launch{Argv: argv, Env: env, Set: set, Dir: a.Dir, Ready: sub(a.Ready), Port: port, ManagementPort: mport, Base: base}, nil
}

// ManagementPortVar is the placeholder of a second free port per trial,
// for an app whose health endpoints listen on a port of their own (Spring
// Boot's management.server.port, Quarkus's management interface).
const ManagementPortVar = "${management_port}"

// UsesVar says whether a placeholder appears where Expand expands.
func (a *App) UsesVar(v string) bool {
	fields := append(append(append([]string{a.Ready}, a.Command...), a.Args...), a.JVMOptions...)
	for _, val := range a.Env {
		fields = append(fields, val)
	}
	for _, f := range fields {
		if strings.Contains(f, v) {
			return true
		}
	}
	return false
}

// otherFreePort is a free port other than taken.
func otherFreePort(taken int) (int, error) {
	for range 8 {
		p, err := FreePort()
		if err != nil || p != taken {
			return p, err
		}
	}
	return 0, fmt.Errorf("cannot find a second free port")
}

// baseOf is a URL's scheme and host: the load's target.
func baseOf(u string) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return ""
	}
	return parsed.Scheme + "://" + parsed.Host
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
