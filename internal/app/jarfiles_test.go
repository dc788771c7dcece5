package app

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeJar writes a jar whose manifest is the given text (none if empty).
func writeJar(t *testing.T, path, manifest string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	if manifest != "" {
		w, err := z.Create("META-INF/MANIFEST.MF")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(manifest)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckJarFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, lib := range []string{"netty-buffer-4.1.jar", "netty common.jar"} {
		writeJar(t, filepath.Join(dir, "lib", lib), "")
	}
	// The Class-Path value is wrapped the way the jar tool wraps it: a
	// continuation line starts with one space, and may split a name.
	wrapped := "Manifest-Version: 1.0\r\nClass-Path: lib/netty-buffer-4.1.jar lib/netty%20co\r\n mmon.jar\r\nMain-Class: a.B\r\n\r\n"
	cases := []struct {
		name, manifest, want string
	}{
		{"no manifest", "", ""},
		{"no Class-Path", "Manifest-Version: 1.0\nMain-Class: a.B\n", ""},
		{"all there, wrapped", wrapped, ""},
		{"one missing", "Manifest-Version: 1.0\nClass-Path: lib/netty-buffer-4.1.jar lib/netty-handler-4.1.jar\n", "names 1 file(s) that are not there (first: lib/netty-handler-4.1.jar)"},
		{"the wrap cut short", "Class-Path: lib/netty-buffer-4.1.jar lib/netty%20co\nMain-Class: a.B\n", "first: lib/netty%20co)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			jar := filepath.Join(dir, "app.jar")
			writeJar(t, jar, c.manifest)
			err := CheckJarFiles(jar)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("CheckJarFiles: %v, want nil", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("CheckJarFiles: %v, want an error with %q", err, c.want)
			}
		})
	}
	if err := CheckJarFiles(filepath.Join(dir, "gone.jar")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing jar: %v", err)
	}
	notJar := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notJar, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckJarFiles(notJar); err == nil || !strings.Contains(err.Error(), "not a jar") {
		t.Fatalf("not a jar: %v", err)
	}
}
