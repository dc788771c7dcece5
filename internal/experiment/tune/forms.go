package tune

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Forms are the answer in paste-ready forms.
type Forms struct {
	// Exec runs the app through the launcher, which plans the regions the
	// candidate leaves open from the container's limits and the profile.
	Exec string `json:"exec"`
	// JavaToolOptions gives the JVM every option without the launcher;
	// it holds only at the tuned limit and CPU count.
	JavaToolOptions string `json:"java_tool_options"`
	// Kubernetes is a container's resources: block.
	Kubernetes string `json:"kubernetes"`
}

// Forms renders the answer; profileFile is where the profile was written.
func (r *Result) Forms(profileFile string) Forms {
	if profileFile == "" {
		profileFile = "PROFILE.json"
	}
	exec := fmt.Sprintf("jvmfit exec --goal %s --profile %s -- java %s ...", r.Goal, quote(profileFile), shellJoin(r.Options))
	return Forms{
		Exec:            strings.Join(strings.Fields(exec), " "),
		JavaToolOptions: "JAVA_TOOL_OPTIONS=" + quote(strings.Join(r.JVMOptions(), " ")),
		Kubernetes:      resources(r.MemoryBytes, r.CPUs),
	}
}

// resources asks for what the trials had: the memory request equals
// the limit (memory cannot be taken back without an OOM kill), and the
// CPU request equals the quota the trials measured throttling under.
func resources(mem int64, cpus float64) string {
	m := strconv.FormatInt(mem/size.MiB, 10) + "Mi"
	c := strconv.FormatFloat(cpus, 'f', -1, 64)
	if cpus != math.Trunc(cpus) {
		c = strconv.FormatInt(int64(math.Round(cpus*1000)), 10) + "m"
	}
	return fmt.Sprintf("resources:\n  requests:\n    memory: %q\n    cpu: %q\n  limits:\n    memory: %q\n    cpu: %q\n", m, c, m, c)
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

// quote quotes s for a POSIX shell when it needs it.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+:,./%@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
