package trial

// realDeps are the local backend's Deps, which the real-JVM tests of this
// package run with; local_test.go sets it, since package trial cannot
// import a backend (the backend imports trial).
var realDeps func() Deps

// UseRealDeps sets realDeps (from local_test.go, package trial_test).
func UseRealDeps(f func() Deps) { realDeps = f }
