// Package jvmopts turns a trial's --jvm mode into the JVM options it gives:
// the JDK's own ergonomics, jvmfit's plan for the trial's limits, a named
// option set, or the user's own options.
package jvmopts

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
)

// Request is one trial's choice.
type Request struct {
	Mode        string // default | jvmfit[:goal] | set:NAME | "-Xmx... options"
	JDK         jdk.JDK
	MemoryBytes int64   // the trial's limit; 0 = none (--no-limits)
	CPUs        float64 // the trial's CPU quota; 0 = none
	CPUSet      string
	OptionSets  string // option-sets file (--option-sets or the descriptor's)
}

// Resolve returns the options for r.Mode. Errors are one line and are the
// user's to fix (exit 2).
func Resolve(r Request) ([]string, error) {
	mode := strings.TrimSpace(r.Mode)
	switch {
	case mode == "" || mode == "default":
		return nil, nil
	case mode == "jvmfit" || strings.HasPrefix(mode, "jvmfit:"):
		_, goal, _ := strings.Cut(mode, ":")
		return planned(r, goal)
	case strings.HasPrefix(mode, "set:"):
		name := strings.TrimPrefix(mode, "set:")
		if name == "" {
			return nil, fmt.Errorf("--jvm set:NAME: give the option set's name")
		}
		if r.OptionSets == "" {
			return nil, fmt.Errorf("--jvm %s: no option sets file: give --option-sets FILE or option_sets in the app descriptor", mode)
		}
		sets, err := app.LoadOptionSets(r.OptionSets)
		if err != nil {
			return nil, err
		}
		opts, err := sets.Get(name, r.OptionSets)
		if err != nil {
			return nil, fmt.Errorf("--jvm %s: %v", mode, err)
		}
		return append([]string{}, opts...), nil
	}
	opts, err := launch.SplitOptions(mode)
	if err != nil {
		return nil, fmt.Errorf("--jvm: %v", err)
	}
	for _, o := range opts {
		if !strings.HasPrefix(o, "-") {
			return nil, fmt.Errorf("--jvm: %q is neither a mode nor a JVM option: give default, jvmfit[:goal], set:NAME or options starting with -", o)
		}
	}
	return opts, nil
}
