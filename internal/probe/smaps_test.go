package probe

import (
	"os"
	"testing"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

func TestParseSmapsFixture(t *testing.T) {
	b, err := os.ReadFile("testdata/smaps.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := parseSmaps(b, "/usr/lib/jvm/java-17-openjdk-amd64/bin/java")
	// classes.jsa twice (400 + 10240 kB) and app.aot (2048 kB); data files:
	// blob-17.bin and the deleted index.dat (1024 + 512 kB). The JVM's own
	// executable, libraries, modules image, jar and hsperfdata are not data.
	// Of the archive, 3072 kB were written to (anonymous); the heap's
	// anonymous pages are not the archive's.
	want := smapsResident{Archive: (400 + 10240 + 2048) << 10, ArchiveAnon: 3072 << 10, Mapped: (1024 + 512) << 10}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestSmapsRealJVM: JDK 17 maps its default CDS archive, a few MiB of it
// resident once the JVM is up.
func TestSmapsRealJVM(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx64m", "-XX:+UseSerialGC")
	got, err := readSmaps("", p.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("archive %d KiB (%d KiB anonymous), mapped data %d KiB", got.Archive>>10, got.ArchiveAnon>>10, got.Mapped>>10)
	if got.Archive < 2*mib || got.Archive > 64*mib || got.ArchiveAnon > got.Archive {
		t.Errorf("CDS archive resident %d KiB, want a few MiB", got.Archive>>10)
	}
	// Probe.java maps no file of its own.
	if got.Mapped > mib {
		t.Errorf("mapped data files %d KiB in a JVM that maps none", got.Mapped>>10)
	}
}
