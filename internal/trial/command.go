package trial

import (
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
)

// commandLine is what the progress echo shows of a launch: the variables
// the descriptor and the mode set for the app, then its command line,
// less the -XX:+PrintFlagsFinal that jvmfit adds for itself. Variables
// the app inherits from jvmfit's own environment are not repeated.
func commandLine(l app.Launch) string {
	var words []string
	for _, kv := range l.Set {
		k, v, _ := strings.Cut(kv, "=")
		words = append(words, k+"="+shellQuote(v))
	}
	for _, a := range l.Argv {
		if a != flagsOption {
			words = append(words, shellQuote(a))
		}
	}
	return strings.Join(words, " ")
}

// shellQuote quotes a word that a shell would split or expand, so that
// the echoed line can be pasted.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
