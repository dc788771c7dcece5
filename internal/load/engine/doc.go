// Package engine sends a phase's requests and times them: connections on
// one epoll event loop with a coroutine per virtual user (loop.go,
// sock.go), a hand-written HTTP/1.1 client that reads answers (conn.go),
// and the two load models: open, paced by a Schedule whose Pacer is a
// plain value tests drive without a network (schedule.go, open.go), and
// closed (closed.go). Each finished request becomes a record.Outcome.
//
// It does not parse scenarios (package scenario builds the request bytes
// it sends) and does not summarise results (package record does). The
// event loop is Linux-only (epoll); elsewhere RunPhase returns an error.
package engine
