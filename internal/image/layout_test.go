package image

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// Issue 22: an image's JDK is found the way its entrypoint finds it, in the
// layouts users build: distroless (java by path, no JAVA_HOME, no shell),
// Temurin (JAVA_HOME set, /opt/java/openjdk) and a buildpack (the JRE in
// a layer the image's configuration does not name). Each is a JDK 17 built
// offline; the release file read is the JDK's own.
func TestImageJDKInUsersLayouts(t *testing.T) {
	prereq.Root(t)
	prereq.Docker(t)
	prereq.Java(t, JDK17+"/bin/java")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	e := docker.Default()
	for _, c := range []struct{ ref, home string }{
		{DistrolessRef, JDK17},
		{TemurinRef, "/opt/java/openjdk"},
		{BuildpackRef, "/layers/paketo-buildpacks_bellsoft-liberica/jre"},
	} {
		if err := Ensure(ctx, e, repoRoot(t), c.ref); err != nil {
			t.Fatal(err)
		}
		j, err := docker.ImageJDK(ctx, e, c.ref)
		if err != nil {
			t.Errorf("%s: %v", c.ref, err)
			continue
		}
		if j.Version != 17 || j.Home != c.home || !strings.HasPrefix(j.Full, "17.") {
			t.Errorf("%s: JDK %d (%s) at %s, want 17 at %s", c.ref, j.Version, j.Full, j.Home, c.home)
		}
		t.Logf("%s: JDK %s (%s) at %s", c.ref, j.Full, j.Vendor, j.Home)
	}
	// The distroless image has no shell; its java runs by path.
	out, err := e.Run(ctx, nil, "run", "--rm", "--network", "none", "--entrypoint", "/usr/bin/java", DistrolessRef, "-version")
	if err != nil {
		t.Fatalf("distroless java: %v: %s", err, out)
	}
	if _, err := e.Run(ctx, nil, "run", "--rm", "--network", "none", "--entrypoint", "/bin/sh", DistrolessRef, "-c", "true"); err == nil {
		t.Error("the distroless image has a shell")
	}
}
