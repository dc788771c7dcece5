package app

import (
	"strings"
	"testing"
)

// TestDescriptorRejectsNaNCPUs: strconv.ParseFloat takes "NaN" and "Inf",
// and NaN passes every "<= 0" check, so a service with cpus: NaN ran with
// no CPU limit at all. Each non-finite or non-positive value is one error
// naming the field.
func TestDescriptorRejectsNaNCPUs(t *testing.T) {
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "-1", "0"} {
		dir := t.TempDir()
		p := write(t, dir, "app.yaml", "jar: x.jar\nready: http://127.0.0.1:${port}/\nservices:\n  - name: db\n    kind: postgres\n    cpus: "+v+"\n")
		_, err := Load(p)
		if err == nil {
			t.Errorf("cpus: %s accepted", v)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "services[0].cpus: ") || !strings.Contains(msg, "not a positive number of CPUs") || strings.Contains(msg, "\n") {
			t.Errorf("cpus: %s: %q, want one line naming services[0].cpus", v, msg)
		}
	}
}
