//go:build linux

package docker

// KernelLoggedOOM lets the container tests (package docker_test) check the
// kernel log's evidence of a container's OOM kill on its own.
func KernelLoggedOOM(e Engine, dir string) bool { return e.kernelLoggedOOM(dir) }
