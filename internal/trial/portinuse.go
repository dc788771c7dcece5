package trial

import (
	"fmt"
	"strings"
)

// KindPortInUse marks a trial whose app could not bind the port jvmfit
// chose for it: another process on the machine took it between the choice
// and the bind. It says nothing about the app, so it is no KO to search
// on: the Session runs the trial again with a fresh port.
const KindPortInUse Kind = "port-in-use"

// bindFailures are how apps report a taken port: Spring Boot's failure
// analyser, the JDK's BindException, and the C library's message.
var bindFailures = []string{
	"was already in use",
	"java.net.BindException",
	"Address already in use",
}

// portInUse re-judges a KO whose app never became ready and whose output
// says it could not bind its port.
func portInUse(r *Result, tail string, wasReady bool, port int) {
	// Only an app that ended or never answered: an OOM kill, a Java OOM
	// or a memory stall are verdicts on its memory whatever it printed.
	if r.Verdict != KO || wasReady || r.Kind != KindExited && r.Kind != KindNotReady {
		return
	}
	for _, line := range strings.Split(tail, "\n") {
		for _, b := range bindFailures {
			if strings.Contains(line, b) {
				r.Kind = KindPortInUse
				r.Failed = []string{fmt.Sprintf("the app could not bind port %d, which another process took after jvmfit chose it (%q): not the app's fault; run it again", port, strings.TrimSpace(line))}
				return
			}
		}
	}
}
