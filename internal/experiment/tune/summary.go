package tune

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Summary is tune's answer as the experiment's stored summary, which
// `jvmfit report` renders: the answer and its paste-ready forms as the
// recommendation, the Pareto front and the candidates as the search.
func (r *Result) Summary(profileFile string) judge.Summary {
	head := "no answer"
	if r.Verdict != None {
		head = fmt.Sprintf("%s, %g CPU, %s (%s)", size.Format(r.MemoryBytes), r.CPUs, r.Candidate, r.Verdict)
	}
	text := r.answerText(profileFile)
	if r.Verdict != None {
		f := r.Forms(profileFile)
		text += fmt.Sprintf("\nPaste-ready:\n\n```sh\n%s\n```\n\n```sh\n%s\n```\n\n```yaml\n%s```\n", f.Exec, f.JavaToolOptions, f.Kubernetes)
	}
	details := strings.TrimLeft(r.frontTable()+r.candidateTable(), "\n")
	details += fmt.Sprintf("\n%d trials of a budget of %d.\n", r.Used(), r.Budget)
	return judge.Summary{Headline: head, Text: text, Details: details}
}
