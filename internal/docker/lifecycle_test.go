//go:build linux

package docker_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/jdk"
)

// TestJavaToolOptionsReachTheJVM: options given in JAVA_TOOL_OPTIONS reach
// a JVM that the image starts: it says it picked them up, and the heap it
// reports is the one asked for (96m: a multiple of every heap alignment,
// which would round 77m up to 78m).
func TestJavaToolOptionsReachTheJVM(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	var out, errs bytes.Buffer
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "tool-options", Image: jdk17Image, MemoryBytes: 256 * mi, CPUs: 1,
		Env:    []string{"JAVA_TOOL_OPTIONS=-Xmx96m"},
		Args:   []string{"java", "-XX:+PrintFlagsFinal", "-version"},
		Stdout: &out, Stderr: &errs,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	select {
	case <-p.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("java -version still runs after 60 s")
	}
	if e := p.Exit(); e.Code != 0 {
		t.Errorf("exit %+v, want 0; stderr:\n%s", e, errs.String())
	}
	if !strings.Contains(errs.String(), "Picked up JAVA_TOOL_OPTIONS: -Xmx96m") {
		t.Errorf("no \"Picked up JAVA_TOOL_OPTIONS\" line on stderr:\n%.800s", errs.String())
	}
	if want := strconv.Itoa(96 * mi); !hasFlag(out.String(), "MaxHeapSize", want) {
		t.Errorf("MaxHeapSize is not %s in the JVM's flags", want)
	}
}

func hasFlag(flags, name, value string) bool {
	for _, line := range strings.Split(flags, "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && f[1] == name && f[3] == value {
			return true
		}
	}
	return false
}

// TestCancelLeavesNoContainer: cancelling the trial's context (what
// SIGINT does to jvmfit) mid-run stops and removes the container even
// before anyone calls Stop.
func TestCancelLeavesNoContainer(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	ctx, cancel := context.WithCancel(context.Background())
	p, err := s.Start(ctx, docker.Launch{
		Name: "cancelled", Image: jdk17Image, MemoryBytes: 128 * mi, CPUs: 1,
		// A JVM that would run for ten minutes.
		Args: []string{"java", "-XX:TieredStopAtLevel=1", "-version"},
		Env:  []string{"JAVA_TOOL_OPTIONS=-XX:+UnlockDiagnosticVMOptions -XX:+PauseAtExit"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	time.Sleep(time.Second)
	if ids := containers(t, os.Getpid()); len(ids) != 1 {
		t.Fatalf("want the one running container, got %v", ids)
	}
	cancel()
	select {
	case <-p.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("the container still runs 60 s after its context ended")
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(containers(t, os.Getpid())) != 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if ids := containers(t, os.Getpid()); len(ids) != 0 {
		t.Errorf("containers left after cancel: %v", ids)
	}
}

// TestImageJDKIsTheImages: the JDK read from an image built from Temurin
// 25 is 25, while the host's default java is 17.
func TestImageJDKIsTheImages(t *testing.T) {
	need(t, jdk17Image, jdk25Image)
	host, err := jdk.Find("")
	if err != nil {
		t.Fatal(err)
	}
	hostJDK, err := jdk.Inspect(host)
	if err != nil {
		t.Fatal(err)
	}
	if hostJDK.Version != 17 {
		t.Fatalf("the host's default java is %d; this test expects 17 (Debian's)", hostJDK.Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for ref, want := range map[string]int{jdk25Image: 25, jdk17Image: 17} {
		j, err := docker.ImageJDK(ctx, docker.Default(), ref)
		if err != nil {
			t.Fatal(err)
		}
		if j.Version != want || j.Vendor == "" || j.Vendor == "unknown" {
			t.Errorf("%s: JDK %d from %q, want %d and a vendor", ref, j.Version, j.Vendor, want)
		}
		t.Logf("%s: JDK %s (%s) at %s", ref, j.Full, j.Vendor, j.Home)
	}
	if _, err := docker.ImageJDK(ctx, docker.Default(), "jvmfit-test/no-such-image:0"); err == nil {
		t.Error("a missing image gave no error")
	}
}
