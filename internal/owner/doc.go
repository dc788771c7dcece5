// Package owner says whose containers, cgroups and Jobs a sweep may
// remove (docs/faults.md, "Security"). A pid alone cannot say it: a shared
// Docker daemon or namespace serves jvmfits in other PID namespaces and on
// other machines, where any pid may look dead here.
//
// An owner is a random id recorded beside the results database (ForDB):
// the runs on one database share it, and its next run finds it there. A
// run is one jvmfit process (Proc: its boot, PID namespace, pid and start
// time), stamped on everything it starts. A sweep removes what its own
// owner's gone runs left (Proc.Gone), and, past --sweep-stale, anyone's.
package owner
