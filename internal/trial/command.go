package trial

import (
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// commandLine is what the progress echo shows of a launch: the variables
// the descriptor and the mode set for the app, then its command line,
// less the -XX:+PrintFlagsFinal that jvmfit adds for itself. Variables
// the app inherits from jvmfit's own environment are not repeated.
func commandLine(l app.Launch) string {
	var words []string
	for _, kv := range l.Set {
		k, v, _ := strings.Cut(kv, "=")
		words = append(words, k+"="+plan.ShellQuote(v))
	}
	for _, a := range l.Argv {
		if a != flagsOption {
			words = append(words, plan.ShellQuote(a))
		}
	}
	return strings.Join(words, " ")
}
