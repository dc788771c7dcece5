//go:build linux

package probe

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAttachTriggerNoFollow: a link planted at the trigger's name in a
// JVM's working directory is not followed (root would create the file it
// points to), and a file already there that jvmfit did not create is left
// as it is: used as the trigger, never removed.
func TestAttachTriggerNoFollow(t *testing.T) {
	dir := t.TempDir()
	const name = ".attach_pid4242"
	target := filepath.Join(t.TempDir(), "created-by-root")
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	remove, err := createTrigger(dir, name)
	if err == nil {
		remove()
		t.Errorf("createTrigger through a planted link: no error")
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("the link's target %s was created (%v)", target, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
		t.Errorf("the planted link was removed: %v", err)
	}

	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, name), []byte("someone's"), 0o600); err != nil {
		t.Fatal(err)
	}
	remove, err = createTrigger(other, name)
	if err != nil {
		t.Fatalf("a trigger file already there: %v, want it used as it is", err)
	}
	remove()
	if b, err := os.ReadFile(filepath.Join(other, name)); err != nil || string(b) != "someone's" {
		t.Errorf("a trigger file jvmfit did not create was changed or removed: %q, %v", b, err)
	}
}
