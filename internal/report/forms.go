package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The paste-ready forms of an answer, one renderer for every experiment's
// (minmem, sweep, compare and tune all hand a judge.Answer).

// Kubernetes is the container's resources block: the memory request
// equals the limit (memory cannot be taken back without an OOM kill) and
// the CPU request equals the quota the trials ran under. A size is
// written as Kubernetes reads it, rounded up to whole MiB. The
// framework's thread-pool knobs follow as the container's env (forms_env.go).
func Kubernetes(a judge.Answer) string {
	m, c := k8sQuantity(a.MemoryBytes), k8sCPU(a.CPUs)
	return fmt.Sprintf("resources:\n  requests:\n    memory: %s\n    cpu: %q\n  limits:\n    memory: %s\n    cpu: %q\n", m, c, m, c) + k8sEnv(a.AppEnv)
}

// JavaToolOptions fixes every option of the answer in the environment;
// it holds only at the answer's limit and CPU count.
func JavaToolOptions(a judge.Answer) string {
	return "JAVA_TOOL_OPTIONS=" + plan.ShellQuote(strings.Join(a.Options, " "))
}

// ExecCommand runs the app through the launcher, which plans what the
// answer's own options leave open from the container's limits and the
// profile.
func ExecCommand(a judge.Answer) string {
	profile := a.Profile
	if profile == "" {
		profile = "PROFILE.json"
	}
	words := []string{"jvmfit", "exec"}
	if g := jvmopts.ParseMode(a.JVM).Goal; g != "" {
		words = append(words, "--goal", g)
	}
	words = append(words, "--profile", plan.ShellQuote(profile), "--", "java")
	if len(a.UserOptions) > 0 {
		words = append(words, plan.ShellJoin(a.UserOptions))
	}
	return strings.Join(append(words, "..."), " ")
}

// k8sQuantity writes a size as Kubernetes does (Mi/Gi are the same binary
// units jvmfit uses), rounded up so the container gets at least the
// limit the trials had.
func k8sQuantity(b int64) string {
	if b%size.GiB == 0 {
		return strconv.FormatInt(b/size.GiB, 10) + "Gi"
	}
	return strconv.FormatInt((b+size.MiB-1)/size.MiB, 10) + "Mi"
}

func k8sCPU(c float64) string {
	if c == float64(int64(c)) {
		return strconv.FormatInt(int64(c), 10)
	}
	return strconv.FormatInt(int64(c*1000+0.5), 10) + "m"
}

// Forms are an answer in paste-ready forms (tune's JSON "forms").
type Forms struct {
	// Exec runs the app through the launcher, which plans the regions the
	// answer's own options leave open from the container's limits and the
	// profile.
	Exec string `json:"exec"`
	// JavaToolOptions gives the JVM every option without the launcher;
	// it holds only at the answer's limit and CPU count.
	JavaToolOptions string `json:"java_tool_options"`
	// Kubernetes is a container's resources: block.
	Kubernetes string `json:"kubernetes"`
}

// FormsOf renders an answer's forms.
func FormsOf(a judge.Answer) Forms {
	return Forms{Exec: ExecCommand(a), JavaToolOptions: JavaToolOptions(a), Kubernetes: Kubernetes(a)}
}

// TuneForms are a tune's answer in paste-ready forms; profileFile is where
// the profile was written.
func TuneForms(r *tune.Result, profileFile string) Forms { return FormsOf(r.Answer(profileFile)) }
