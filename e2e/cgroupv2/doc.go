// Package cgroupv2 proves jvmfit on a real cgroup v2 kernel: its test boots
// Debian's kernel under QEMU (TCG) with an initramfs of busybox, the host's
// JDK 21 and the test binaries, and runs the real-group tests and real JVM
// trials in the layouts users run jvmfit from (docs/cgroupv2.md). It has no
// code outside its tests.
package cgroupv2
