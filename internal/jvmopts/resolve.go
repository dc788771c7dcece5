// Package jvmopts turns a trial's --jvm mode into the JVM options it gives:
// the JDK's own ergonomics, jvmfit's plan for the trial's limits, another
// tool's options for them (runjava, paketo, ubi), a named option set, or
// the user's own options; always with the descriptor's
// jvm_options, placed by the one override rule (plan.Override), planned
// by exec's rule (plan.Fit: what does not fit gets no cap).
package jvmopts

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/anchor"
	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// Request is one trial's choice.
type Request struct {
	Mode        string // default | jvmfit[:goal] | runjava | paketo | ubi | set:NAME | "-Xmx... options"
	JDK         jdk.JDK
	MemoryBytes int64   // the trial's limit; 0 = none (--no-limits)
	CPUs        float64 // the trial's CPU quota; 0 = none
	CPUSet      string
	OptionSets  string // option-sets file (--option-sets or the descriptor's)
	// UserOptions are the descriptor's jvm_options. They win over a plan.
	UserOptions []string
	// CommandOptions are JVM options the descriptor's command gives
	// itself: the planner plans around them, but they are not repeated.
	CommandOptions []string
	// Profile is the app's measured profile a plan sizes its regions
	// from (nil: the planner's floors).
	Profile *plan.Profile
	// Jar is the app's jar: the paketo mode counts its classes.
	Jar string
	// Strict refuses a jvmfit plan where the user's options leave it in
	// doubt (plan.Strict, exec --strict); otherwise the trial gets exec's
	// plan (plan.Fit) and the doubt in Resolved.Doubt.
	Strict bool
}

// Resolved is what a mode gives the JVM.
type Resolved struct {
	// Options is the JVM's options in command-line order: a plan's first,
	// then the descriptor's jvm_options, then a set's or --jvm's own (the
	// user's last word wins).
	Options []string
	// Env is the mode's environment: the plan's, or the set's.
	Env map[string]string
	// Doubt is the plan's sizing doubt (exec's warning line), "" if none.
	Doubt string
}

// Resolve returns the options for r.Mode. Errors are one line and are the
// user's to fix (exit 2).
func Resolve(r Request) (Resolved, error) {
	mode := strings.TrimSpace(r.Mode)
	var user []string // nil without options, as before: the spec's key depends on it
	user = append(user, r.UserOptions...)
	switch {
	case mode == "" || mode == "default":
		return Resolved{Options: user}, nil
	case ParseMode(mode).Launcher:
		return planned(r, ParseMode(mode).Goal)
	case anchor.IsStyle(mode) && mode != "jdk":
		return anchored(r, mode)
	case strings.HasPrefix(mode, "set:"):
		set, err := optionSet(r, mode)
		if err != nil {
			return Resolved{}, err
		}
		return Resolved{Options: append(user, set.Options...), Env: set.Env}, nil
	}
	opts, err := launch.SplitOptions(mode)
	if err != nil {
		return Resolved{}, fmt.Errorf("--jvm: %w", err)
	}
	for _, o := range opts {
		if !strings.HasPrefix(o, "-") {
			return Resolved{}, fmt.Errorf("--jvm: %q is neither a mode nor a JVM option: give default, jvmfit[:goal], runjava, paketo, ubi, set:NAME or options starting with -", o)
		}
	}
	return Resolved{Options: append(user, opts...)}, nil
}

func optionSet(r Request, mode string) (app.OptionSet, error) {
	name := strings.TrimPrefix(mode, "set:")
	if name == "" {
		return app.OptionSet{}, fmt.Errorf("--jvm set:NAME: give the option set's name")
	}
	if r.OptionSets == "" {
		return app.OptionSet{}, fmt.Errorf("--jvm %s: no option sets file: give --option-sets FILE or option_sets in the app descriptor", mode)
	}
	sets, err := app.LoadOptionSets(r.OptionSets)
	if err != nil {
		return app.OptionSet{}, err
	}
	set, err := sets.Get(name, r.OptionSets)
	if err != nil {
		return app.OptionSet{}, fmt.Errorf("--jvm %s: %w", mode, err)
	}
	return set, nil
}
