//go:build linux

package probe

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

const kib = 1 << 10

// The fixtures are jcmd outputs (first line, "<pid>:", removed) of JVMs run with -Xmx64m
// -XX:NativeMemoryTracking=summary.
func TestParseNMTFixtures(t *testing.T) {
	for _, c := range []struct {
		file                        string
		total, totalCommitted, code int64
		categories                  int
	}{
		{"testdata/nmt-jdk11.txt", 1430342 * kib, 121662 * kib, 247725 * kib, 15},
		{"testdata/nmt-jdk17.txt", 1504781 * kib, 127865 * kib, 247726 * kib, 18},
		{"testdata/nmt-jdk21.txt", 1488999 * kib, 121251 * kib, 247737 * kib, 18},
		{"testdata/nmt-jdk25.txt", 1503647 * kib, 129707 * kib, 247744 * kib, 19},
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseNMT(string(b))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got[NMTTotal] != (NMTCategory{c.total, c.totalCommitted}) {
			t.Errorf("%s: total %+v", c.file, got[NMTTotal])
		}
		if got["Java Heap"] != (NMTCategory{64 << 20, 64 << 20}) {
			t.Errorf("%s: heap %+v, want 64 MiB reserved and committed", c.file, got["Java Heap"])
		}
		if got["Code"].Reserved != c.code {
			t.Errorf("%s: code %+v", c.file, got["Code"])
		}
		if _, ok := got["Native Memory Tracking"]; !ok {
			t.Errorf("%s: names with spaces lost: %v", c.file, got)
		}
		if len(got) != c.categories+1 {
			t.Errorf("%s: %d categories, want %d + total", c.file, len(got)-1, c.categories)
		}
		var sum int64
		for name, cat := range got {
			if name != NMTTotal {
				sum += cat.Committed
			}
		}
		// Categories under 1 KB are omitted and the rest rounded: the parts
		// add up to the total within a few KB.
		if d := sum - c.totalCommitted; d < -64*kib || d > 64*kib {
			t.Errorf("%s: categories sum to %d, total %d", c.file, sum, c.totalCommitted)
		}
	}
}

func TestParseNMTUnitsAndErrors(t *testing.T) {
	got, err := ParseNMT("Total: reserved=2GB, committed=3MB\n-   Java Heap (reserved=1GB, committed=512MB)\n")
	if err != nil || got[NMTTotal].Reserved != 2<<30 || got["Java Heap"].Committed != 512<<20 {
		t.Errorf("scaled output: %v %v", got, err)
	}
	if _, err := ParseNMT("1234:\nNative memory tracking is not enabled\n"); err == nil || !strings.Contains(err.Error(), "-XX:NativeMemoryTracking=summary") {
		t.Errorf("NMT off: %v", err)
	}
	if _, err := ParseNMT("garbage"); err == nil || !strings.Contains(err.Error(), "garbage") {
		t.Errorf("garbage: %v", err)
	}
}

// TestNMTRealJVMs reads the summary from live JDK 11, 17, 21 and 25 processes.
func TestNMTRealJVMs(t *testing.T) {
	for name, java := range map[string]string{"jdk11": jvmtest.Java11, "jdk17": jvmtest.Java17, "jdk21": jvmtest.Java21, "jdk25": jvmtest.Java25} {
		t.Run(name, func(t *testing.T) {
			jvmtest.Need(t, java)
			jcmd := JcmdFor(java)
			if jcmd == "" {
				prereq.Fail(t, "jcmd next to "+java, prereq.Installer)
			}
			p := jvmtest.Start(t, java, "-Xmx80m", "-XX:NativeMemoryTracking=summary")
			p.Do(t, "threads 20")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			got, err := NMT(ctx, jcmd, p.Pid)
			if err != nil {
				t.Fatal(err)
			}
			if got["Java Heap"].Reserved != 80<<20 {
				t.Errorf("heap reserved %d, want -Xmx80m", got["Java Heap"].Reserved)
			}
			th := got["Thread"]
			if th.Committed <= 0 || th.Reserved < th.Committed {
				t.Errorf("thread %+v", th)
			}
			// 20 extra threads reserve their stacks (1 MiB each by default).
			if th.Reserved < 20<<20 {
				t.Errorf("thread reserved %d after starting 20 threads", th.Reserved)
			}
			if tot := got[NMTTotal]; tot.Committed < got["Java Heap"].Committed || tot.Reserved < tot.Committed {
				t.Errorf("total %+v", tot)
			}
		})
	}
}

func TestNMTErrors(t *testing.T) {
	jvmtest.Need(t, jvmtest.Java17)
	jcmd := JcmdFor(jvmtest.Java17)
	if jcmd == "" {
		prereq.Fail(t, "jcmd next to "+jvmtest.Java17, prereq.Installer)
	}
	if JcmdFor("/nonexistent/bin/java") != "" {
		t.Errorf("jcmd found for a java that does not exist")
	}
	if _, err := NMT(context.Background(), "", 1); err == nil || !strings.Contains(err.Error(), "jcmd") {
		t.Errorf("no jcmd: %v", err)
	}
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx32m")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := NMT(ctx, jcmd, p.Pid); err == nil || !strings.Contains(err.Error(), "NativeMemoryTracking") {
		t.Errorf("JVM without NMT: %v", err)
	}
}
