package anchor

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// The class count of a real JDK's lib/modules matches what the JDK's own
// jimage tool lists.
func TestJVMClassesMatchesJimage(t *testing.T) {
	for _, home := range []string{"/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/temurin-25-jdk-amd64"} {
		tool := home + "/bin/jimage"
		if _, err := os.Stat(tool); err != nil {
			t.Logf("%s: no jimage tool", home)
			continue
		}
		out, err := exec.Command(tool, "list", home+"/lib/modules").Output()
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, l := range bytes.Split(out, []byte("\n")) {
			if bytes.HasSuffix(bytes.TrimSpace(l), []byte(".class")) {
				want++
			}
		}
		got, err := JVMClasses(home)
		if err != nil || got != want || want < 10000 {
			t.Errorf("%s: %d classes, %v; jimage lists %d", home, got, err, want)
		}
	}
	if _, err := JVMClasses(t.TempDir()); err == nil {
		t.Error("a home without lib/modules gave no error")
	}
	if _, err := countJimageClasses(make([]byte, 64)); err == nil {
		t.Error("zeros taken for a jimage")
	}
}
