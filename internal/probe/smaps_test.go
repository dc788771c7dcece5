package probe

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

func TestParseSmapsFixture(t *testing.T) {
	b, err := os.ReadFile("testdata/smaps.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := parseSmaps(b, "/usr/lib/jvm/java-17-openjdk-amd64/bin/java", map[string]bool{"/opt/app/cache.bin": true})
	// classes.jsa twice (400 + 10240 kB), app.aot (2048 kB) and cache.bin,
	// an AOT cache by the options (1000 kB); data files:
	// blob-17.bin and the deleted index.dat (1024 + 512 kB). The JVM's own
	// executable, libraries, modules image, jar and hsperfdata are not data.
	// Of the archive, 3072 kB were written to (anonymous); the heap's
	// anonymous pages are not the archive's.
	want := smapsResident{Archive: (400 + 10240 + 2048 + 1000) << 10, ArchiveAnon: 3072 << 10, Mapped: (1024 + 512) << 10}
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

func TestArchiveFilesFixture(t *testing.T) {
	got := archiveFiles("testdata/proc", 4248)
	want := map[string]bool{"/opt/app/app.cache": true, "/opt/base.jsa": true, "/opt/app/dyn.jsa": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestSmapsAOTCacheRealJVM: JDK 25 with an AOT cache whose name says
// nothing (app.cache, given relative to the working directory) maps it,
// and the reader counts it as the archive. The reading waits for main to
// say it runs, not for a fixed time: by then the JVM has loaded its boot
// classes from the cache, whatever the machine's load (a 5 s poll that
// stopped at the first resident page failed on a loaded one). One smaps
// text is read both ways, so the two sums see the same pages.
func TestSmapsAOTCacheRealJVM(t *testing.T) {
	jvmtest.Need(t, jvmtest.Java25)
	dir := t.TempDir()
	src := filepath.Join(dir, "Sleep.java")
	os.WriteFile(src, []byte("public class Sleep { public static void main(String[] a) throws Exception { System.out.println(\"up\"); Thread.sleep(Long.parseLong(a[0])); } }\n"), 0o644)
	javac := filepath.Join(filepath.Dir(jvmtest.Java25), "javac")
	if out, err := exec.Command(javac, "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v %s", err, out)
	}
	train := exec.Command(jvmtest.Java25, "-XX:AOTCacheOutput=app.cache", "-cp", ".", "Sleep", "100")
	train.Dir = dir
	if out, err := train.CombinedOutput(); err != nil {
		t.Fatalf("training run: %v %s", err, out)
	}
	// -XX:AOTMode=on: a cache the JVM refuses is an error, not a silent run
	// without it.
	run := exec.Command(jvmtest.Java25, "-XX:AOTMode=on", "-XX:AOTCache=app.cache", "-cp", ".", "Sleep", "600000")
	run.Dir = dir
	run.Stderr = os.Stderr
	out, err := run.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { run.Process.Kill(); run.Wait() }()
	up := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(out).ReadString('\n')
		if err == nil && line != "up\n" {
			err = fmt.Errorf("printed %q", line)
		}
		up <- err
	}()
	select {
	case err := <-up:
		if err != nil {
			t.Fatalf("the JVM with the AOT cache did not reach main: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the JVM with the AOT cache did not reach main in 2 minutes")
	}
	pid := run.Process.Pid
	exe, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	text, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps"))
	if err != nil {
		t.Fatal(err)
	}
	got := parseSmaps(text, exe, archiveFiles("/proc", pid))
	bySuffix := parseSmaps(text, exe, nil)
	t.Logf("AOT cache resident %d KiB (by suffix alone %d KiB)", got.Archive>>10, bySuffix.Archive>>10)
	if got.Archive < mib || bySuffix.Archive >= got.Archive {
		t.Errorf("archive %d bytes, by suffix alone %d: the options' cache file is not counted", got.Archive, bySuffix.Archive)
	}
}
