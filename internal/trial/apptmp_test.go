package trial

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A dead jvmfit's app directory goes; a live one's, this process's and
// anything not named like one stay.
func TestSweepAppTmp(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	mk := func(name string) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(d, "work"), 0o700); err != nil {
			t.Fatal(err)
		}
		return d
	}
	gone := mk(appTmpPrefix + strconv.Itoa(dead.Process.Pid) + "-123")
	kept := []string{
		mk(appTmpPrefix + strconv.Itoa(os.Getppid()) + "-456"),
		mk(appTmpPrefix + strconv.Itoa(self) + "-789"),
		mk(appTmpPrefix + "123456789"), // no pid in the name: not ours to judge
		mk("other-" + strconv.Itoa(dead.Process.Pid) + "-1"),
	}
	sweepAppTmp(dir, self)
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the dead jvmfit's %s is still there (%v)", gone, err)
	}
	for _, d := range kept {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

// makeAppTmp names the directory for this process, which sweepAppTmp
// reads back.
func TestMakeAppTmpNamesThePid(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	d, err := makeAppTmp()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(d)
	want := appTmpPrefix + strconv.Itoa(os.Getpid()) + "-"
	if b := filepath.Base(d); len(b) <= len(want) || b[:len(want)] != want {
		t.Errorf("made %s, want a name starting %s", b, want)
	}
}
