package docker

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarOf(t *testing.T, files map[string]string, dirs ...string) *bytes.Buffer {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, d := range dirs {
		tw.WriteHeader(&tar.Header{Name: d + "/", Typeflag: tar.TypeDir, Mode: 0o755})
	}
	for n, body := range files {
		tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))})
		tw.Write([]byte(body))
	}
	tw.WriteHeader(&tar.Header{Name: "lib/link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return &b
}

func TestUntarWritesFilesBelowDir(t *testing.T) {
	dir := t.TempDir()
	if err := untar(tarOf(t, map[string]string{"lib/main/a.jar": "A", "lib/boot/b.jar": "B"}, "lib", "lib/main"), dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "lib/main/a.jar")); err != nil || string(b) != "A" {
		t.Errorf("%q %v", b, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "lib/link")); err == nil {
		t.Error("a symbolic link was written")
	}
	err := untar(tarOf(t, map[string]string{"../escape": "x"}), dir)
	if err == nil || !strings.Contains(err.Error(), "leaves its directory") {
		t.Errorf("%v", err)
	}
}
