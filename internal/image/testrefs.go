package image

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// The images the tests of several packages run, built offline from the
// host's JDKs and the sample services' jars.
const (
	JDK17Ref     = "jvmfit-test/jdk17:latest"
	JDK25Ref     = "jvmfit-test/jdk25:latest"
	FilecacheRef = "jvmfit-test/filecache:jdk17" // filecache's jar on JDK17Ref
)

// Ensure builds ref, one of the refs above, unless it is up to date;
// repoRoot locates workloads/filecache/target/filecache.jar.
func Ensure(ctx context.Context, e docker.Engine, repoRoot, ref string) error {
	var err error
	switch ref {
	case JDK17Ref:
		_, err = JDKBase(ctx, e, JDK17, ref)
	case JDK25Ref:
		_, err = JDKBase(ctx, e, JDK25, ref)
	case FilecacheRef:
		if err = Ensure(ctx, e, repoRoot, JDK17Ref); err == nil {
			_, err = App(ctx, e, JDK17Ref, FilecacheJar(repoRoot), ref)
		}
	default:
		return fmt.Errorf("no recipe for test image %s", ref)
	}
	return err
}

// FilecacheJar is where `make workloads` puts filecache's jar.
func FilecacheJar(repoRoot string) string {
	return filepath.Join(repoRoot, "workloads", "filecache", "target", "filecache.jar")
}
