package jdk

import (
	"os"
	"path/filepath"
	"testing"
)

func fakeJDK(t *testing.T, root, home, version string) {
	t.Helper()
	bin := filepath.Join(root, home, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "java"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	os.WriteFile(filepath.Join(root, home, "release"), []byte("JAVA_VERSION=\""+version+"\"\nIMPLEMENTOR=\"test\"\n"), 0o644)
}

func TestInstalledAndAtLeast(t *testing.T) {
	root := t.TempDir()
	fakeJDK(t, root, "usr/lib/jvm/java-17-openjdk-amd64", "17.0.15")
	fakeJDK(t, root, "usr/lib/jvm/temurin-25-jdk-amd64", "25.0.1")
	fakeJDK(t, root, "opt/java/openjdk", "21.0.8")
	os.Symlink("java-17-openjdk-amd64", filepath.Join(root, "usr/lib/jvm/java-1.17.0-openjdk-amd64"))
	if got := Installed(root); len(got) != 3 {
		t.Fatalf("installed %q, want three (the symlink once)", got)
	}
	for _, c := range []struct {
		need, want int
		ok         bool
	}{{11, 17, true}, {17, 17, true}, {18, 21, true}, {21, 21, true}, {22, 25, true}, {26, 0, false}} {
		j, ok := AtLeast(root, c.need)
		if ok != c.ok || j.Version != c.want {
			t.Errorf("at least %d: %d %v, want %d %v", c.need, j.Version, ok, c.want, c.ok)
		}
	}
}

// On this machine: Debian's 17 and the image's Temurin 25.
func TestAtLeastOnThisHost(t *testing.T) {
	j, ok := AtLeast("/", 21)
	if !ok || j.Version < 21 {
		t.Fatalf("no JDK 21+ in the usual places: %+v (Temurin 25 comes with the machine, at /usr/lib/jvm/temurin-25-jdk-amd64)", j)
	}
}
