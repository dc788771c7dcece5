package launcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// stopSignals are the signals that stop a container (SIGTERM), a
// terminal's job (SIGINT) or a session's (SIGHUP): one that comes while
// exec plans means "do not start".
var stopSignals = []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}

// SignalError is a signal that came while exec planned: java was not
// started. jvmfit ends with ExitCode, 128 + the signal's number, the
// status a shell or a container runtime reports for a process the signal
// ended. It does not re-raise the signal instead: a PID 1 that does not
// handle a signal never gets it (the kernel drops it), and would go on.
type SignalError struct{ Signal syscall.Signal }

func (e *SignalError) Error() string {
	return fmt.Sprintf("%s while planning: java not started", signalNames[e.Signal])
}

// ExitCode is the status jvmfit ends with.
func (e *SignalError) ExitCode() int { return 128 + int(e.Signal) }

var signalNames = map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT", syscall.SIGHUP: "SIGHUP"}

// watchSignals watches stopSignals (those not ignored: under nohup a
// SIGHUP stays ignored, for java too) while exec plans. ctx ends at the
// first, which ends the `java -version` probe. stop ends the watch and
// returns the signal that came, if one did, as a *SignalError: from then
// on a signal takes its default action, ending jvmfit before the exec,
// since one caught then would be lost and java would start.
func watchSignals(parent context.Context) (ctx context.Context, stop func() error) {
	var watched []os.Signal
	for _, s := range stopSignals {
		if !signal.Ignored(s) {
			watched = append(watched, s)
		}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, watched...)
	ctx, cancel := context.WithCancelCause(parent)
	done := make(chan struct{})
	var got *SignalError
	go func() {
		defer close(done)
		select {
		case s := <-ch:
			got = &SignalError{s.(syscall.Signal)}
			cancel(got)
		case <-ctx.Done():
		}
	}()
	return ctx, func() error {
		// Reset undoes main's signal.NotifyContext too: exec ends here,
		// with the exec of java or an error.
		signal.Reset(watched...)
		cancel(nil)
		<-done
		if got == nil {
			select {
			case s := <-ch:
				got = &SignalError{s.(syscall.Signal)}
			default:
			}
		}
		if got == nil {
			got = parentSignal(parent)
		}
		switch {
		case got != nil:
			return got
		case parent.Err() != nil:
			return context.Cause(parent) // ended otherwise: still no start
		}
		return nil
	}
}

// parentSignal is the signal that ended parent (main's
// signal.NotifyContext, which caught one before the watch began), read
// from its cause, which names the signal; nil if none did.
func parentSignal(parent context.Context) *SignalError {
	if parent.Err() == nil {
		return nil
	}
	cause := context.Cause(parent)
	var se *SignalError
	if errors.As(cause, &se) {
		return se
	}
	for _, s := range stopSignals {
		if cause != nil && strings.HasPrefix(cause.Error(), s.String()+" ") {
			return &SignalError{s}
		}
	}
	return nil
}
