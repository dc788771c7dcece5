//go:build linux

package image

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// TestEnsureFilecache: Ensure builds filecache's image on the JDK 17 base,
// and a second call finds it up to date (the same image id).
func TestEnsureFilecache(t *testing.T) {
	prereq.Docker(t)
	prereq.Java(t, JDK17+"/bin/java")
	root := repoRoot(t)
	prereq.Built(t, FilecacheJar(root))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := docker.Default()
	if err := Ensure(ctx, e, root, FilecacheRef); err != nil {
		t.Fatal(err)
	}
	id1, err := docker.ImageID(ctx, e, FilecacheRef)
	if err != nil {
		t.Fatal(err)
	}
	if err := Ensure(ctx, e, root, FilecacheRef); err != nil {
		t.Fatal(err)
	}
	if id2, _ := docker.ImageID(ctx, e, FilecacheRef); id2 != id1 || !strings.HasPrefix(id1, "sha256:") {
		t.Errorf("image id %q then %q: want one sha256 id, the second Ensure building nothing", id1, id2)
	}
	if err := Ensure(ctx, e, root, "jvmfit-test/nothing:1"); err == nil {
		t.Error("an unknown ref: want an error")
	}
}
