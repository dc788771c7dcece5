//go:build linux

package docker_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// capNetRaw is CAP_NET_RAW's bit in /proc/PID/status's capability masks.
const capNetRaw = 13

// TestContainerHasPidsLimitAndDroppedCaps: a trial's container may start
// no more than the default number of tasks, its JVM cannot open raw
// sockets (CAP_NET_RAW, on by default in Docker, lets a process forge
// packets on the host's network, which container trials share), and no
// setuid binary in the image can raise its privileges. Read from the
// kernel's view of the JVM, not from docker's own record of its flags.
func TestContainerHasPidsLimitAndDroppedCaps(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "hardened", Image: jdk17Image, MemoryBytes: 128 * mi, CPUs: 1,
		// A JVM that stays until stopped.
		Args: []string{"java", "-XX:TieredStopAtLevel=1", "-version"},
		Env:  []string{"JAVA_TOOL_OPTIONS=-XX:+UnlockDiagnosticVMOptions -XX:+PauseAtExit"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	pid := p.JavaPid(30 * time.Second)
	if pid <= 0 {
		t.Fatal("no java process in the container after 30s")
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			status[k] = strings.TrimSpace(v)
		}
	}
	for _, set := range []string{"CapBnd", "CapEff", "CapPrm"} {
		mask, err := strconv.ParseUint(status[set], 16, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", set, status[set], err)
		}
		if mask&(1<<capNetRaw) != 0 {
			t.Errorf("the container's JVM has CAP_NET_RAW in %s (%s)", set, status[set])
		}
	}
	if status["NoNewPrivs"] != "1" {
		t.Errorf("NoNewPrivs is %q, want 1 (--security-opt no-new-privileges)", status["NoNewPrivs"])
	}
	if got := cgroupOf(t, pid, "pids", "pids.max"); got != "4096" {
		t.Errorf("pids.max of the container's pids group is %q, want the default 4096", got)
	}
}
