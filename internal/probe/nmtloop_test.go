package probe

import (
	"context"
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
