package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// The jvm: line shows every option given, the descriptor's among them, and
// the mode's environment; findings have their own lines.
func TestTrialTextShowsOptionsEnvAndFindings(t *testing.T) {
	r := &trial.Result{Verdict: trial.OK, Failed: []string{}, Findings: []string{trial.CodeCacheFinding},
		Spec: trial.Spec{AppName: "x", JVM: "jvmfit", JDKVersion: 17, MemoryBytes: 256 << 20, CPUs: 1,
			JVMOptions: []string{"-Xmx100m", "-XX:MaxMetaspaceSize=128m"}, JVMEnv: map[string]string{"MALLOC_ARENA_MAX": "2"}}}
	var b bytes.Buffer
	TrialText(&b, r, "t.db")
	for _, want := range []string{
		"  jvm:      jvmfit, JDK 17: -Xmx100m -XX:MaxMetaspaceSize=128m (env MALLOC_ARENA_MAX=2)\n",
		"  finding:  " + trial.CodeCacheFinding + "\n",
		"| OK; " + trial.CodeCacheFinding,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}
