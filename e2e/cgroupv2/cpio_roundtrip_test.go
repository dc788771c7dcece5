package cgroupv2

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// TestCpioWriterBusyboxReadsIt: an archive of a file, an empty file, a
// directory, a symlink and a file whose parents were never named is read
// back by another implementation (busybox cpio) with the same content,
// modes and link target.
func TestCpioWriterBusyboxReadsIt(t *testing.T) {
	prereq.File(t, "busybox (Debian package busybox-static)", busybox, prereq.Installer)
	dir := t.TempDir()
	host := filepath.Join(dir, "host-file")
	if err := os.WriteFile(host, []byte("from the host, 27 bytes.\n!!"), 0o750); err != nil {
		t.Fatal(err)
	}
	im := newImage()
	if err := im.hostFile("/bin/tool", host); err != nil {
		t.Fatal(err)
	}
	im.data("/deep/er/still/script", 0o755, []byte("#!/bin/sh\necho odd length\n"))
	im.data("/etc/empty", 0o644, nil)
	im.dir("/proc")
	im.entries["/bin/alias"] = imageEntry{link: "tool"}
	archive := filepath.Join(dir, "a.cpio")
	size, err := im.write(archive)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(archive); st == nil || st.Size() != size || size%4 != 0 {
		t.Fatalf("archive size %d, reported %d: want equal and 4-aligned", st.Size(), size)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(busybox, "cpio", "-i", "-d", "-F", archive)
	cmd.Dir = out
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("busybox cpio -i: %v\n%s", err, b)
	}
	for name, want := range map[string]string{
		"bin/tool":             "from the host, 27 bytes.\n!!",
		"deep/er/still/script": "#!/bin/sh\necho odd length\n",
		"etc/empty":            "",
	} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
	for name, want := range map[string]os.FileMode{"bin/tool": 0o750, "deep/er/still/script": 0o755, "etc/empty": 0o644} {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %v", name, st.Mode().Perm(), err, want)
		}
	}
	if st, err := os.Stat(filepath.Join(out, "proc")); err != nil || !st.IsDir() {
		t.Errorf("proc: %v, want a directory", err)
	}
	if l, err := os.Readlink(filepath.Join(out, "bin/alias")); err != nil || l != "tool" {
		t.Errorf("bin/alias -> %q, %v; want tool", l, err)
	}
	list, err := exec.Command(busybox, "cpio", "-t", "-F", archive).Output()
	if err != nil {
		t.Fatal(err)
	}
	// Parents come before their children, each once.
	names := strings.Fields(string(list))
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("%s listed twice", n)
		}
		if p := filepath.Dir(n); p != "." && !seen[p] {
			t.Errorf("%s comes before its parent %s", n, p)
		}
		seen[n] = true
	}
}
