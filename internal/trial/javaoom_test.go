package trial

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The lines HotSpot and the JDK print, as they print them.
func TestOOMAreaFromOutputLines(t *testing.T) {
	cases := map[string]string{
		"Terminating due to java.lang.OutOfMemoryError: Java heap space":                                                                "Java heap space",
		"Terminating due to java.lang.OutOfMemoryError: Metaspace":                                                                      "Metaspace",
		`Exception in thread "main" java.lang.OutOfMemoryError: Compressed class space`:                                                 "Compressed class space",
		"java.lang.OutOfMemoryError: Direct buffer memory":                                                                              "Direct buffer memory",
		"Caused by: java.lang.OutOfMemoryError: Cannot reserve 4194304 bytes of direct buffer memory (allocated: 1)":                    "Direct buffer memory",
		"[42.1s] java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached": "unable to create native thread",
		`Exception in thread "http-nio-8080-exec-1" java.lang.OutOfMemoryError: GC overhead limit exceeded`:                             "GC overhead limit exceeded",
		"Terminating due to java.lang.OutOfMemoryError: Requested array size exceeds VM limit":                                          "Requested array size exceeds VM limit",
		"java.lang.OutOfMemoryError": "unknown area",
	}
	for line, want := range cases {
		if got, ok := oomArea(line); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", line, got, ok, want)
		}
	}
	for _, line := range []string{"INFO handled OutOfMemoryError in a test", "-XX:+ExitOnOutOfMemoryError", "java.lang.OutOfMemoryErrorHandler started"} {
		if a, ok := oomArea(line); ok {
			t.Errorf("%q read as an OOM in %q", line, a)
		}
	}
	for line, want := range map[string]bool{
		"OpenJDK 64-Bit Server VM warning: CodeCache is full. Compiler has been disabled.":                        true,
		"OpenJDK 64-Bit Server VM warning: CodeHeap 'non-profiled nmethods' is full. Compiler has been disabled.": true,
		"OpenJDK 64-Bit Server VM warning: Try increasing the code cache size using -XX:ReservedCodeCacheSize=":   false,
	} {
		if codeCacheFull(line) != want {
			t.Errorf("%q: code cache full %v", line, !want)
		}
	}
}

// The first OOM is the cause; the output keeps it, and the code cache.
func TestOutputRecordsFirstOOMAndCodeCache(t *testing.T) {
	o := newOutput(nil)
	w := o.stream()
	w.Write([]byte("ok\nException in thread \"main\" java.lang.OutOfMemoryError: Metaspace\n"))
	w.Write([]byte("Terminating due to java.lang.OutOfMemoryError: Java heap space\n"))
	if a, cc := o.Memory(); a != "Metaspace" || cc {
		t.Fatalf("%q %v", a, cc)
	}
	w.Write([]byte("OpenJDK 64-Bit Server VM warning: CodeCache is full. Compiler has been disabled.\n"))
	if _, cc := o.Memory(); !cc {
		t.Fatal("code cache warning missed")
	}
}

// Real JVMs: the fixture fills its heap, or its metaspace, under load.
// The trial's duration only bounds a fixture that never runs out: the
// trial ends when the JVM exits, so a long one costs a passing run nothing,
// while a loaded machine that slows the fill tenfold still sees the OOM
// inside it (metaoom once needed 14 s of a 20 s trial on an idle machine).
func TestRealJavaOOMIsJavaOOMNamingTheArea(t *testing.T) {
	for _, c := range []struct {
		mode, option, area string
	}{
		{"heapoom", "-Xmx16m", "Java heap space"},
		{"metaoom", "-XX:MaxMetaspaceSize=24m", "Metaspace"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			a := fixtureApp(t, c.mode, 30*time.Second, "-XX:+ExitOnOutOfMemoryError", c.option)
			spec := prepared(t, a, Spec{NoLimits: os.Geteuid() != 0, MemoryBytes: 256 * size.MiB, CPUs: 1, Duration: 3 * time.Minute})
			r, err := Run(context.Background(), spec, a, deps(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Log(r.Line())
			if r.Verdict != KO || r.Kind != KindJavaOOM || r.OOMArea != c.area || r.ExitCode == nil || *r.ExitCode != 3 {
				t.Fatalf("%s %s area %q code %v %q\n%s", r.Verdict, r.Kind, r.OOMArea, r.ExitCode, r.Failed, r.OutputTail)
			}
			if !strings.Contains(r.Failed[0], "java.lang.OutOfMemoryError: "+c.area) || !strings.Contains(r.Failed[0], "exited with code 3") {
				t.Errorf("reason %q", r.Failed[0])
			}
		})
	}
}
