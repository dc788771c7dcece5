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
	// JDK 17 laid out as users' images lay it out (layout.go).
	DistrolessRef = "jvmfit-test/jdk17-distroless:latest"
	TemurinRef    = "jvmfit-test/jdk17-temurin:latest"
	BuildpackRef  = "jvmfit-test/jdk17-buildpack:latest"
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
	case DistrolessRef:
		_, err = JDKImage(ctx, e, JDK17, ref, Distroless)
	case TemurinRef:
		_, err = JDKImage(ctx, e, JDK17, ref, Temurin)
	case BuildpackRef:
		_, err = JDKImage(ctx, e, JDK17, ref, Buildpack)
	default:
		return fmt.Errorf("no recipe for test image %s", ref)
	}
	return err
}

// FilecacheJar is where `make workloads` puts filecache's jar.
func FilecacheJar(repoRoot string) string {
	return filepath.Join(repoRoot, "workloads", "filecache", "target", "filecache.jar")
}
