package image

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseLdd(t *testing.T) {
	out := []byte("\tlinux-vdso.so.1 (0x00007ffc)\n" +
		"\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f01)\n" +
		"\tlibjli.so => /usr/lib/jvm/x/lib/libjli.so (0x00007f02)\n" +
		"\tlibfoo.so => not found\n" +
		"\t/lib64/ld-linux-x86-64.so.2 (0x00007f03)\n")
	want := []string{"/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/jvm/x/lib/libjli.so", "/lib64/ld-linux-x86-64.so.2"}
	if got := parseLdd(out); !reflect.DeepEqual(got, want) {
		t.Errorf("parseLdd = %q, want %q", got, want)
	}
}

// TestWriteRootfs: a link inside the JDK stays a link, one leaving it
// becomes the file it points at, a dangling one and jmods are left out,
// and /etc/passwd and a world-writable sticky /tmp are there, each once.
func TestWriteRootfs(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "jdk")
	outside := filepath.Join(dir, "etc-java", "net.properties")
	for _, d := range []string{home + "/bin", home + "/conf", home + "/jmods", filepath.Dir(outside)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must(t, os.WriteFile(home+"/bin/java", []byte("ELF?"), 0o755))
	must(t, os.WriteFile(home+"/jmods/java.base.jmod", []byte("big"), 0o644))
	must(t, os.WriteFile(outside, []byte("x=1\n"), 0o644))
	must(t, os.Symlink(outside, home+"/conf/net.properties"))
	must(t, os.Symlink("../bin/java", home+"/conf/java-link"))
	must(t, os.Symlink("/nonexistent/file", home+"/conf/dangling"))

	var buf bytes.Buffer
	if err := WriteRootfs(&buf, home, nil); err != nil {
		t.Fatal(err)
	}
	entries := map[string]*tar.Header{}
	tr := tar.NewReader(&buf)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if entries[h.Name] != nil {
			t.Errorf("%s written twice", h.Name)
		}
		entries[h.Name] = h
	}
	rel := func(p string) string { return p[1:] }
	check := func(name string, typ byte) *tar.Header {
		h := entries[name]
		if h == nil || h.Typeflag != typ {
			t.Errorf("%s: entry %+v, want type %q", name, h, typ)
		}
		return h
	}
	check(rel(home)+"/bin/java", tar.TypeReg)
	check(rel(home)+"/conf/net.properties", tar.TypeReg)
	if h := check(rel(home)+"/conf/java-link", tar.TypeSymlink); h != nil && h.Linkname != "../bin/java" {
		t.Errorf("java-link points at %s", h.Linkname)
	}
	for _, gone := range []string{rel(home) + "/conf/dangling", rel(home) + "/jmods/", rel(home) + "/jmods/java.base.jmod"} {
		if entries[gone] != nil {
			t.Errorf("%s is in the rootfs; it should be left out", gone)
		}
	}
	check("etc/passwd", tar.TypeReg)
	if h := check("tmp/", tar.TypeDir); h != nil && h.Mode != 0o1777 {
		t.Errorf("/tmp mode %o, want 1777", h.Mode)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
