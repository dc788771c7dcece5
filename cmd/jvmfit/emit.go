package main

import (
	"io"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/report"
)

// emitFlags are --emit and --emit-name, on tune, minmem and flags.
type emitFlags struct{ kind, name string }

func (e *emitFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&e.kind, "emit", "", "print the answer as a change to apply instead of the report: k8s (a Deployment patch), helm (values) or vpa (docs/emit.md)")
	fs.StringVar(&e.name, "emit-name", "", "with --emit: the Deployment and container name (default: the app's name)")
}

// dnsLabel is what Kubernetes takes as a container's name.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// check refuses bad --emit flags before anything runs; json is the
// command's --json or --format json, which --emit replaces.
func (e *emitFlags) check(conflict string) error {
	if e.kind == "" {
		if e.name != "" {
			return usagef("--emit-name goes with --emit k8s, helm or vpa")
		}
		return nil
	}
	if !report.IsEmitKind(e.kind) {
		return usagef("--emit %q: use %s", e.kind, strings.Join(report.EmitKinds, ", "))
	}
	if conflict != "" {
		return usagef("--emit prints the answer in place of the report: drop %s", conflict)
	}
	if e.name != "" && (len(e.name) > 63 || !dnsLabel.MatchString(e.name)) {
		return usagef("--emit-name %q: give the Deployment's container name (lower case letters, digits and -, at most 63)", e.name)
	}
	return nil
}

// write prints a; app names it when --emit-name does not.
func (e *emitFlags) write(w io.Writer, a judge.Answer, app string) error {
	name := e.name
	if name == "" {
		name = containerName(app)
	}
	return report.Emit(w, e.kind, a, name)
}

// containerName is app as a container's name ("app" if nothing is left).
func containerName(app string) string {
	n := strings.Trim(regexp.MustCompile(`[^a-z0-9-]+`).ReplaceAllString(strings.ToLower(app), "-"), "-")
	if len(n) > 63 {
		n = strings.Trim(n[:63], "-")
	}
	if n == "" {
		return "app"
	}
	return n
}

// jsonFlag names --json when it is set, for check.
func jsonFlag(set bool) string {
	if set {
		return "--json"
	}
	return ""
}

// planAnswer is flags' plan as an answer: every option java gets (the
// plan's, then the user's after --) at the plan's limit and CPUs; the
// plan's own variables ride along as env.
func planAnswer(p *plan.Plan, user []string, profile string) judge.Answer {
	return judge.Answer{MemoryBytes: p.LimitBytes, CPUs: p.CPUs, JVM: "jvmfit:" + p.Goal,
		Options: append(append([]string(nil), p.Options...), user...), UserOptions: user, Profile: profile, AppEnv: p.Env}
}
