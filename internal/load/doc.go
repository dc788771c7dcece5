// Package load runs a scenario's phases against a service: it is the thin
// composition that jvmfit load, jvmfit run and the experiments call.
//
// It applies a run's Options to a scenario (rate, duration, warm-up,
// workers, target), binds each request to its address and refuses targets
// off loopback (plan.go, target.go), then hands the phases one by one to
// the engine and collects what they recorded into a record.Result (run.go).
//
// It is not the scenario language (package scenario), the HTTP engine
// (package engine) or the recording and reports (package record); data
// flows scenario → engine → record, and this package only wires them. It
// stays a package of its own so that callers need one call, Run, and
// neither the engine nor the scenario language learns about the other's
// options.
package load
