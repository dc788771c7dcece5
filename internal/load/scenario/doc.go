// Package scenario is the load generator's scenario language
// (docs/scenario.md): it parses and validates the YAML, substitutes the
// user's variables at load time so that a mistake fails before any
// request is sent, and keeps the per-request variables (${worker},
// ${iter}, ${file}, ${version}, ${port}) as slots. It expands a phase into
// the requests each virtual user sends (users.go) and a request into its
// HTTP/1.1 bytes, bodies and multipart included (wire.go, body.go).
//
// It does not send anything, time anything or record results: that is
// package engine, which reads a Scenario's Phases and Wires, and package
// record. It imports neither.
package scenario
