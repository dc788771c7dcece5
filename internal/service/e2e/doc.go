//go:build linux

// Package e2e runs seed 002's experiment end to end through the real
// jvmfit binary: the inventory service, its throwaway PostgreSQL, a small
// CPU x rate sweep and the HTML report's charts.
package e2e
