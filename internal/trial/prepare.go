package trial

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/size"
)

const nmtOption = "-XX:NativeMemoryTracking=summary"

// Prepare fills a spec's derived fields for app a (name, java, JDK version,
// the resolved JVM options and environment, SLO and rate defaults) and
// checks them, so that Key() is known before the trial runs and every
// input error comes out before anything starts. optionSets overrides the
// descriptor's file. Errors are the user's to fix.
func Prepare(spec Spec, a *app.App, optionSets string) (Spec, error) {
	if a == nil {
		return spec, fmt.Errorf("no app: give --app app.yaml or --jar app.jar --ready URL")
	}
	if spec.AppName == "" {
		spec.AppName = a.Name
	}
	spec.AppDigest = appDigest(a)
	if spec.App == "" {
		spec.App = a.File
		if spec.App == "" {
			spec.App = a.Jar
		}
	}
	j, err := prepareJDK(&spec, a)
	if err != nil {
		return spec, err
	}
	if err := checkLimits(&spec); err != nil {
		return spec, err
	}
	if err := place(&spec, a); err != nil {
		return spec, err
	}
	if err := checkHost(spec, a); err != nil {
		return spec, err
	}
	if err := checkLauncher(spec, a); err != nil {
		return spec, err
	}
	if err := resolveOptions(&spec, a, j, optionSets); err != nil {
		return spec, err
	}
	return spec, loadDefaults(&spec, a)
}

// prepareJDK finds the JDK the app runs and sets spec.Java and
// JDKVersion: the image's own for an image app, else the host's.
func prepareJDK(spec *Spec, a *app.App) (jdk.JDK, error) {
	if a.Image != "" {
		return prepareImage(spec, a)
	}
	spec.Engine = "" // a host trial's key does not depend on --engine
	java, err := javaFor(spec.Java, a)
	if err != nil {
		return jdk.JDK{}, err
	}
	j, err := jdk.Inspect(java)
	if err != nil {
		return j, err
	}
	spec.Java, spec.JDKVersion = java, j.Version
	return j, nil
}

// MinMemoryBytes is the smallest limit a trial's cgroup accepts.
const MinMemoryBytes = 4 * size.MiB

// checkLimits refuses limits a trial cannot run at, before anything runs.
func checkLimits(spec *Spec) error {
	switch {
	case spec.NoLimits:
		spec.MemoryBytes, spec.CPUs, spec.CPUSet = 0, 0, ""
	case spec.MemoryBytes <= 0:
		return fmt.Errorf("--memory: give the trial's memory limit, e.g. 300Mi (or --no-limits for a baseline)")
	case spec.MemoryBytes < MinMemoryBytes:
		return fmt.Errorf("--memory %s: a trial's limit is at least %s: give a limit like 256Mi", size.Format(spec.MemoryBytes), size.Format(MinMemoryBytes))
	}
	if spec.CPUs < 0 {
		return fmt.Errorf("--cpus: %g is negative", spec.CPUs)
	}
	return cpusAvailable(spec.CPUs)
}

// resolveOptions sets the mode's options and environment, with the
// descriptor's own placed by the one override rule.
func resolveOptions(spec *Spec, a *app.App, j jdk.JDK, optionSets string) error {
	if spec.JVM == "" {
		spec.JVM = "default"
	}
	if optionSets == "" {
		optionSets = a.OptionSets
	} else if abs, err := filepath.Abs(optionSets); err == nil {
		optionSets = abs
	}
	prof, err := loadProfile(spec)
	if err != nil {
		return err
	}
	user := append(append([]string(nil), a.JVMOptions...), spec.UserOptions...)
	res, err := jvmopts.Resolve(jvmopts.Request{
		Mode: spec.JVM, JDK: j, MemoryBytes: spec.MemoryBytes, CPUs: spec.CPUs,
		CPUSet: spec.CPUSet, OptionSets: optionSets,
		UserOptions: user, CommandOptions: commandOptions(a), Profile: prof, Jar: jvmopts.AppJar(a),
	})
	if err != nil {
		return err
	}
	opts := res.Options
	if spec.Launcher == LauncherExec {
		// The plan was made only to refuse a limit before the trial:
		// jvmfit exec makes it again in the trial's cgroup, and adds its
		// environment itself.
		opts, res.Env = user, nil
	}
	if spec.NMT && !hasOption(opts, "-XX:NativeMemoryTracking=") {
		opts = append(opts, nmtOption)
	}
	spec.JVMOptions, spec.JVMEnv = opts, modeEnv(res.Env, a.Env)
	return nil
}

// modeEnv is the mode's environment less what the descriptor's env sets:
// the app's own value wins (as jvmfit exec does it), so the trial's spec,
// its key and its report name only the variables the mode really adds.
func modeEnv(mode, own map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range mode {
		if _, set := own[k]; !set {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// loadDefaults fills the SLO and rate from the descriptor and checks them.
func loadDefaults(spec *Spec, a *app.App) error {
	if spec.SLO == "" {
		spec.SLO = a.SLO
	}
	if spec.SLO == "" {
		spec.SLO = DefaultSLO
	}
	if _, err := ParseSLO(spec.SLO); err != nil {
		return fmt.Errorf("--slo: %w", err)
	}
	if spec.Rate == 0 {
		spec.Rate = a.Rate
	}
	if spec.Rate < 0 || spec.Warmup < 0 || spec.Duration < 0 {
		return fmt.Errorf("--rate, --warmup and --duration cannot be negative")
	}
	return nil
}

// hostLimits is what this machine and jvmfit's own cgroup allow; a
// variable so that tests can stand in for a smaller or larger host.
var hostLimits = func() (cgroup.Limits, error) { return cgroup.Detect("/") }

// cpusAvailable refuses a CPU limit above what jvmfit itself may use: the
// trial would run at the lower figure but be recorded at the asked one,
// and a v1 parent's quota makes the kernel refuse a larger child anyway.
func cpusAvailable(cpus float64) error {
	if cpus <= 0 {
		return nil
	}
	l, err := hostLimits()
	if err != nil {
		return nil // the sandbox reports an unusable cgroup tree itself
	}
	if avail := l.EffectiveCPUs(); cpus > avail+1e-9 {
		return fmt.Errorf("--cpus %g: jvmfit itself may only use %g here (host CPUs, its cpuset and its cgroup's quota); a trial would run at %g but be recorded at %g: ask for at most %g",
			cpus, avail, avail, cpus, avail)
	}
	return nil
}

func hasOption(opts []string, prefix string) bool {
	for _, o := range opts {
		if strings.HasPrefix(o, prefix) {
			return true
		}
	}
	return false
}

// appDigest hashes what the descriptor resolves to, plus the scenario
// file's bytes (the scenario defines the load as much as the descriptor).
func appDigest(a *app.App) string {
	h := sha256.New()
	b, _ := json.Marshal(a)
	h.Write(b)
	if a.Scenario != "" {
		if sc, err := os.ReadFile(a.Scenario); err == nil {
			h.Write(sc)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}
