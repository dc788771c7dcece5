//go:build linux

package engine

import (
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// classify fills in success, the error text and whether the latency is
// recorded: it is for every answer and every timeout (a slow server must
// show in the tail), not for requests that never reached the server.
func classify(o *record.Outcome, r *scenario.Request, err error, phaseEnd bool, timeout time.Duration) {
	if err == nil {
		o.RecordLatency = true
		if r.Expected(o.Status) {
			o.OK = true
			return
		}
		o.Err = "unexpected status " + strconv.Itoa(o.Status)
		return
	}
	o.Status = 0
	if errors.Is(err, errAborted) {
		// Sent but unanswered when the run was cancelled: like a timeout,
		// its wait so far belongs in the tail.
		o.RecordLatency = true
		o.Err = errAborted.Error()
		return
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		o.RecordLatency = true
		if phaseEnd {
			o.Err = "no answer before the phase ended (drain included)"
		} else {
			o.Err = "timeout after " + timeout.String()
		}
		return
	}
	o.Err = ErrorKey(err)
}
