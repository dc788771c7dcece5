package probe

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

// TestJcmdAttachRealJVM reads NMT and the code cache through the attach
// socket of JDK 17 and 25, and times it: the point of the socket is that a
// reading costs milliseconds, where a jcmd process costs half a second.
func TestJcmdAttachRealJVM(t *testing.T) {
	for _, java := range []string{jvmtest.Java17, jvmtest.Java25} {
		jvmtest.Need(t, java)
		p := jvmtest.Start(t, java, "-Xmx64m", "-XX:+UseSerialGC", "-XX:NativeMemoryTracking=summary")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		text, err := Jcmd(ctx, "", p.Pid, "VM.native_memory summary")
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", java, err)
		}
		cats, err := ParseNMT(text)
		if err != nil || cats["Java Heap"].Reserved != 64*mib || cats["Class"].Committed <= 0 {
			t.Fatalf("%s: NMT %v, %v", java, cats, err)
		}
		// The socket is open now: the next reading needs no signal.
		t0 := time.Now()
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
		text, err = Jcmd(ctx, "", p.Pid, "Compiler.codecache")
		cancel()
		took := time.Since(t0)
		code, perr := ParseCodeCache(text)
		if err != nil || perr != nil || code < 512<<10 || code > 64*mib {
			t.Errorf("%s: code cache %d, %v, %v", java, code, err, perr)
		}
		t.Logf("%s: NMT total committed %d KiB, code cache %d KiB, second reading %v", java, cats[NMTTotal].Committed>>10, code>>10, took)
		if took > 2*time.Second {
			t.Errorf("a reading over an open socket took %v", took)
		}
	}
}

// TestJcmdWithoutNMT: a JVM without NMT answers, and the error says which
// option is missing.
func TestJcmdWithoutNMT(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx32m")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	text, err := Jcmd(ctx, "", p.Pid, "VM.native_memory summary")
	if err == nil {
		_, err = ParseNMT(text)
	}
	if err == nil {
		t.Fatal("no error from a JVM without NMT")
	}
	t.Log(err)
}

// TestSamplerNMTSeries samples a real JVM with NMT every 200 ms: readings
// land on samples, per-category peaks reach the summary, and a class-space
// rise (loading classes) shows up in the series.
func TestSamplerNMTSeries(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx64m", "-XX:+UseSerialGC", "-XX:NativeMemoryTracking=summary")
	s := Start(context.Background(), Target{Pid: p.Pid, NMT: true, NMTEvery: 200 * time.Millisecond}, 50*time.Millisecond)
	time.Sleep(700 * time.Millisecond)
	p.Do(t, "threads 20")
	time.Sleep(700 * time.Millisecond)
	series := s.Stop()
	if errs := s.Errors(); errs["nmt"] != nil {
		t.Fatalf("nmt error: %v", errs["nmt"])
	}
	var readings []Sample
	for _, x := range series {
		if x.NMT != nil {
			readings = append(readings, x)
		}
	}
	if len(readings) < 4 {
		t.Fatalf("%d NMT readings in %d samples over 1.4 s at 200 ms", len(readings), len(series))
	}
	first, last := readings[0], readings[len(readings)-1]
	if last.NMT["Thread"] < first.NMT["Thread"]+10*(64<<10) || last.CodeCacheUsed <= 0 {
		t.Errorf("thread committed %d → %d after 20 threads; code cache %d", first.NMT["Thread"], last.NMT["Thread"], last.CodeCacheUsed)
	}
	sum := Summarise(series, 0)
	if sum.NMTPeak["Thread"] < last.NMT["Thread"] || sum.NMTPeak[NMTTotal] < last.NMT[NMTTotal] || sum.NMTPeak["Java Heap"] <= 0 {
		t.Errorf("peaks %v below the last reading %v", sum.NMTPeak, last.NMT)
	}
	if last.RSSAnon <= 0 || last.RSSAnon > last.RSS {
		t.Errorf("RssAnon %d, RSS %d", last.RSSAnon, last.RSS)
	}
}

func TestNMTEnabledFixtures(t *testing.T) {
	for pid, want := range map[int]bool{
		4242: false, // JAVA_TOOL_OPTIONS turns it on, the command line off again
		4243: true,  // JAVA_TOOL_OPTIONS alone
		4244: true,  // the command line; another variable's text does not count
		4245: false, // no such process
	} {
		if got := nmtEnabled("testdata/proc", pid); got != want {
			t.Errorf("pid %d: %v, want %v", pid, got, want)
		}
	}
}

// TestSamplerFullGCAtEnd: Stop forces a full GC, so the live set is the old
// generation after it (40 MiB retained), not heap used after young GCs.
func TestSamplerFullGCAtEnd(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx128m", "-XX:+UseSerialGC")
	s := Start(context.Background(), Target{Pid: p.Pid, FullGCAtEnd: true}, 50*time.Millisecond)
	p.Do(t, "alloc 40")
	time.Sleep(200 * time.Millisecond)
	before := s.Last().OldGCs
	series := s.Stop()
	last := series[len(series)-1]
	if last.OldGCs <= before {
		t.Fatalf("old GCs %d → %d: no full GC at Stop (errors %v)", before, last.OldGCs, s.Errors())
	}
	if sum := Summarise(series, 0); sum.LivePeak < 40*mib || sum.LivePeak > 60*mib {
		t.Errorf("live peak %d MiB with 40 MiB retained", sum.LivePeak/mib)
	}
}

func TestCatchesSIGQUITFixtures(t *testing.T) {
	if !catchesSIGQUIT("testdata/proc", 4246) || catchesSIGQUIT("testdata/proc", 4247) || catchesSIGQUIT("testdata/proc", 4245) {
		t.Error("SigCgt read wrong: want a JVM's mask to catch SIGQUIT, sleep's and a missing process's not")
	}
}

// TestJcmdSparesNonJVM: attaching to a process that does not catch SIGQUIT
// fails without signalling it (SIGQUIT would end it).
func TestJcmdSparesNonJVM(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start sleep: %v", err)
	}
	defer cmd.Process.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := Jcmd(ctx, "", cmd.Process.Pid, "VM.version"); err == nil || !strings.Contains(err.Error(), "SIGQUIT") {
		t.Errorf("err %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the process is gone: %v", err)
	}
}

// TestStaleSocketRemoved: a JVM killed by SIGKILL (as the OOM killer does)
// leaves the attach socket jvmfit opened; Stop removes it.
func TestStaleSocketRemoved(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx32m", "-XX:NativeMemoryTracking=summary")
	s := Start(context.Background(), Target{Pid: p.Pid, NMT: true, NMTEvery: 100 * time.Millisecond}, 50*time.Millisecond)
	sock := "/tmp/.java_pid" + strconv.Itoa(p.Pid)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no attach socket after 10 s: %v", s.Errors())
		}
		time.Sleep(50 * time.Millisecond)
	}
	syscall.Kill(p.Pid, syscall.SIGKILL)
	time.Sleep(200 * time.Millisecond) // dead, a zombie until jvmtest reaps it
	s.Stop()
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("%s left behind (%v)", sock, err)
	}
}

// TestSamplerGivesUpWithoutAttach: a JVM that refuses attach gets one try
// (a thread dump, as SIGQUIT then asks for), one jcmd, and no more.
func TestSamplerGivesUpWithoutAttach(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx32m", "-XX:NativeMemoryTracking=summary", "-XX:+DisableAttachMechanism")
	s := Start(context.Background(), Target{Pid: p.Pid, NMT: true, NMTEvery: 100 * time.Millisecond}, 50*time.Millisecond)
	deadline := time.Now().Add(20 * time.Second)
	for s.Errors()["nmt"] == nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second) // ten more ticks: none may try again
	series := s.Stop()
	if s.Errors()["nmt"] == nil || s.nmt.on {
		t.Fatalf("still reading NMT from a JVM without attach: errors %v", s.Errors())
	}
	for _, x := range series {
		if x.NMT != nil {
			t.Fatalf("an NMT reading from a JVM without attach: %v", x.NMT)
		}
	}
	if err := syscall.Kill(p.Pid, 0); err != nil {
		t.Errorf("the JVM did not survive: %v", err)
	}
	t.Log(s.Errors()["nmt"])
}
