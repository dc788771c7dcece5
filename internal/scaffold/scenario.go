package scaffold

import (
	"fmt"
	"strings"
)

// Lengths of the generated scenario's phases, and its virtual users.
const (
	scenarioWarmup   = "20s"
	scenarioDuration = "30s"
	scenarioWorkers  = 4
)

// scenarioYAML renders scenario.yaml (docs/scenario.md): the paths as GETs
// in turn, open model at ${rate}, a warm-up not recorded, then measured.
func scenarioYAML(in Input) string {
	paths := in.Paths()
	names := requestNames(paths)
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by `jvmfit init` (docs/scenario.md): %s in turn, open model at ${rate} req/s\n", strings.Join(paths, ", "))
	b.WriteString("# (app.yaml's rate wins), a warm-up that is not recorded, then the measured phase.\n")
	b.WriteString("# Add your own requests (POST bodies, headers) under requests: and list them in sequence:.\n")
	fmt.Fprintf(&b, "name: %s\n", quote(in.Name))
	b.WriteString("base: http://127.0.0.1:8080   # jvmfit run replaces the host and port with the app's\n")
	b.WriteString("vars:\n")
	fmt.Fprintf(&b, "  rate: %g\n  workers: %d\n  warmup: %s\n  duration: %s\n", in.Rate, scenarioWorkers, scenarioWarmup, scenarioDuration)
	b.WriteString("\nrequests:\n")
	for i, p := range paths {
		fmt.Fprintf(&b, "  %s:\n    method: GET\n    url: %s   # any 2xx is a success (expect: [200] to be strict)\n", names[i], quote(p))
	}
	b.WriteString("\nphases:\n")
	for _, ph := range []struct{ name, record, dur string }{{"warmup", "\n    record: false", "${warmup}"}, {"measure", "", "${duration}"}} {
		fmt.Fprintf(&b, "  - name: %s%s\n    model: open\n    rate: ${rate}\n    duration: %s\n    workers: ${workers}\n    sequence: [%s]\n",
			ph.name, ph.record, ph.dur, strings.Join(names, ", "))
	}
	return b.String()
}
