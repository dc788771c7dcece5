package tune

import (
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
)

// JVMOptions are every option of the answer: the launcher's at the
// answer's limit, then the candidate's.
func (r *Result) JVMOptions() []string { return join(r.PlanOptions, r.Options) }

// Answer is the tune's answer as the value every paste-ready form is
// rendered from (report.Forms): the launcher with the goal, the
// candidate's options on the java command line, the profile file.
func (r *Result) Answer(profileFile string) judge.Answer {
	return judge.Answer{MemoryBytes: r.MemoryBytes, CPUs: r.CPUs, JVM: jvmopts.LauncherMode(r.Goal), Options: r.JVMOptions(),
		UserOptions: r.Options, Profile: profileFile}
}
