package trial

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// LauncherExec runs the trial's java command through `jvmfit exec`: the
// jvmfit binary plans inside the trial's cgroup from the limits it detects
// there, as it does in the user's container.
const LauncherExec = "exec"

// Executable is the jvmfit binary a LauncherExec trial runs; a variable
// so that tests (whose own binary is not jvmfit) can give a built one.
var Executable = os.Executable

// loadProfile reads the spec's profile, makes its path absolute and
// records its digest, so that the key tells profiles apart.
//
// Only a jvmfit mode plans, so another mode drops the profile: its trial
// is the same cell with or without one, and an experiment's --profile
// leaves its default and set:NAME trials as they were.
func loadProfile(spec *Spec) (*plan.Profile, error) {
	if !isJvmfitMode(spec.JVM) {
		spec.Profile = ""
	}
	if spec.Profile == "" {
		spec.ProfileDigest = ""
		return nil, nil
	}
	if abs, err := filepath.Abs(spec.Profile); err == nil {
		spec.Profile = abs
	}
	b, err := os.ReadFile(spec.Profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	p, err := plan.LoadProfile(spec.Profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	sum := sha256.Sum256(b)
	spec.ProfileDigest = hex.EncodeToString(sum[:8])
	return p, nil
}

// checkLauncher refuses what the launcher cannot run: a mode that is not
// jvmfit's, or a descriptor whose command does not start java itself
// (exec must be given the java command line, not a script).
func checkLauncher(spec Spec, a *app.App) error {
	switch spec.Launcher {
	case "":
		return nil
	case LauncherExec:
	default:
		return fmt.Errorf("launcher %q: give %q or none", spec.Launcher, LauncherExec)
	}
	if !isJvmfitMode(spec.JVM) {
		return fmt.Errorf("--via-exec runs the app through jvmfit exec, which plans itself: give --jvm jvmfit[:goal], not %s", spec.JVM)
	}
	if a.Image != "" {
		return fmt.Errorf("--via-exec runs a java command on the host: an image app runs its own entrypoint (JVM options reach it through JAVA_TOOL_OPTIONS)")
	}
	if len(a.Command) > 0 && a.Command[0] != "${java}" {
		if j, _ := commandJava(a); j == "" {
			return fmt.Errorf("%s: --via-exec needs a command that runs java (command[0] is %s): jvmfit exec is given the java command line", a.File, a.Command[0])
		}
	}
	return nil
}

func isJvmfitMode(mode string) bool { return jvmopts.ParseMode(mode).Launcher }

// viaLauncher wraps the app's java command line in `jvmfit exec` for a
// LauncherExec trial: exec plans from the trial's cgroup (and the
// profile), puts the plan before the command's own options and replaces
// itself with java, so the app's pid and output are the trial's as usual.
func viaLauncher(l app.Launch, spec Spec) (app.Launch, error) {
	if spec.Launcher != LauncherExec {
		return l, nil
	}
	exe, err := Executable()
	if err != nil {
		return l, fmt.Errorf("cannot find the jvmfit binary to run jvmfit exec: %w", err)
	}
	if strings.HasSuffix(exe, ".test") {
		// A test binary would run its tests, not exec: a test must give
		// a built jvmfit in Executable.
		return l, fmt.Errorf("%s is a test binary, not jvmfit: set trial.Executable to a built jvmfit to run jvmfit exec", exe)
	}
	argv := []string{exe, "exec"}
	if _, goal, _ := strings.Cut(strings.TrimSpace(spec.JVM), ":"); goal != "" {
		argv = append(argv, "--goal", goal)
	}
	if spec.Profile != "" {
		argv = append(argv, "--profile", spec.Profile)
	}
	l.Argv = append(append(argv, "--"), l.Argv...)
	return l, nil
}

// CanExec says whether a trial of mode for app a can run through the
// launcher: a jvmfit mode, and a command that starts java itself.
func CanExec(a *app.App, mode string) bool {
	return a != nil && checkLauncher(Spec{JVM: mode, Launcher: LauncherExec}, a) == nil
}
