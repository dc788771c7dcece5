package tune

import (
	"strconv"

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
		UserOptions: r.Options, Profile: profileFile, AppEnv: r.appEnv()}
}

// appEnv is the chosen candidate's pool knobs in their environment form.
func (r *Result) appEnv() map[string]string {
	var env map[string]string
	for _, c := range r.Candidates {
		if c.Name != r.Candidate {
			continue
		}
		for _, p := range c.Pools {
			if p.Env != "" {
				if env == nil {
					env = map[string]string{}
				}
				env[p.Env] = strconv.Itoa(p.Value)
			}
		}
	}
	return env
}
