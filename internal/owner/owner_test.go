package owner

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Runs on one database share its owner, recorded 0600 beside it; runs on
// a database at the same path elsewhere (another CI job's workspace) get
// another.
func TestForDBIsRecordedAndShared(t *testing.T) {
	db := filepath.Join(t.TempDir(), "jvmfit.db")
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := ForDB(db)
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || !idRE.MatchString(id) {
			t.Fatalf("runs starting at once on one database got owners %v", ids)
		}
	}
	fi, err := os.Stat(db + ".owner")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("owner file %v, %v: want mode 0600", fi, err)
	}
	os.Remove(db + ".owner") // the same path on another machine
	if other, _ := ForDB(db); other == ids[0] {
		t.Errorf("another database at the same path got the same owner %s", other)
	}
}

// A process of this kernel and PID namespace that ended is gone, so is a
// reused pid; this one is not, nor one whose namespace or boot is another.
func TestProcGone(t *testing.T) {
	me := Self()
	if me.Gone() {
		t.Fatal("this process is gone")
	}
	if p, ok := Parse(me.String()); !ok || p != me {
		t.Fatalf("Parse(%q) = %+v, %v", me.String(), p, ok)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := me
	dead.Pid = cmd.Process.Pid
	reused := me
	reused.Start++
	if !dead.Gone() || !reused.Gone() {
		t.Errorf("an ended process (%v) or a reused pid (%v) is not gone", dead.Gone(), reused.Gone())
	}
	for _, p := range []Proc{{Boot: "another-boot", NS: me.NS, Pid: dead.Pid}, {Boot: me.Boot, NS: me.NS + 1, Pid: dead.Pid}} {
		if p.Gone() {
			t.Errorf("%+v is gone: a process of another boot or PID namespace cannot be looked at here", p)
		}
	}
	if _, ok := Parse(""); ok {
		t.Error("an empty record parsed")
	}
}
