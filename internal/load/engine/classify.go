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
// show in the tail), not for requests that never reached the server. An
// error text starts with the request's method and URL: a 404 or a refused
// connection means little until one knows what was asked where.
func classify(o *record.Outcome, w *scenario.Wire, err error, phaseEnd bool, timeout time.Duration) {
	if err == nil {
		o.RecordLatency = true
		if w.Req.Expected(o.Status) {
			o.OK = true
			return
		}
		o.Err = w.Label + ": unexpected status " + strconv.Itoa(o.Status)
		return
	}
	o.Err = w.Label + ": " + failure(o, err, phaseEnd, timeout)
}

// failure is the reason a request got no answer.
func failure(o *record.Outcome, err error, phaseEnd bool, timeout time.Duration) string {
	o.Status = 0
	if errors.Is(err, errAborted) {
		// Sent but unanswered when the run was cancelled: like a timeout,
		// its wait so far belongs in the tail.
		o.RecordLatency = true
		return errAborted.Error()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		o.RecordLatency = true
		if phaseEnd {
			return "no answer before the phase ended (drain included)"
		}
		return "timeout after " + timeout.String()
	}
	return ErrorKey(err)
}
