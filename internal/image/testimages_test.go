package image

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func repoRoot(t *testing.T) string {
	_, f, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(f), "..", "..")
}

// TestJDKBaseRunsJava builds the JDK 17 base image and runs its java: the
// rootfs holds everything the JDK needs to start, and a second build is
// skipped through the inputs label.
func TestJDKBaseRunsJava(t *testing.T) {
	prereq.Docker(t)
	prereq.Java(t, JDK17+"/bin/java")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := docker.Default()
	if _, err := JDKBase(ctx, e, JDK17, "jvmfit-test/jdk17:latest"); err != nil {
		t.Fatal(err)
	}
	built, err := JDKBase(ctx, e, JDK17, "jvmfit-test/jdk17:latest")
	if err != nil || built {
		t.Fatalf("second build: built=%v err=%v, want skipped through the %s label", built, err, LabelInputs)
	}
	out, err := e.Run(ctx, nil, "run", "--rm", "--network", "none", "jvmfit-test/jdk17:latest",
		"java", "-XX:+PrintFlagsFinal", "-version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "MaxHeapSize") {
		t.Errorf("java -XX:+PrintFlagsFinal in the image printed no MaxHeapSize:\n%.500s", out)
	}
	if _, err := e.Run(ctx, nil, "run", "--rm", "--network", "none", "jvmfit-test/jdk17:latest",
		"sh", "-c", "exit 0"); err == nil {
		t.Errorf("the image has a shell; it should hold only the JDK and its libraries")
	}
}

// TestAppImage builds filecache's image FROM the base; its entrypoint is
// java -jar /app.jar.
func TestAppImage(t *testing.T) {
	prereq.Docker(t)
	jar := filepath.Join(repoRoot(t), "workloads", "filecache", "target", "filecache.jar")
	prereq.Built(t, jar)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := docker.Default()
	if _, err := JDKBase(ctx, e, JDK17, "jvmfit-test/jdk17:latest"); err != nil {
		t.Fatal(err)
	}
	if _, err := App(ctx, e, "jvmfit-test/jdk17:latest", jar, "jvmfit-test/filecache:jdk17"); err != nil {
		t.Fatal(err)
	}
	ep, err := e.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config.Entrypoint}}", "jvmfit-test/filecache:jdk17")
	if err != nil {
		t.Fatal(err)
	}
	if ep != `["java","-jar","/app.jar"]` {
		t.Errorf("entrypoint %s, want java -jar /app.jar", ep)
	}
	if built, err := App(ctx, e, "jvmfit-test/jdk17:latest", jar, "jvmfit-test/filecache:jdk17"); err != nil || built {
		t.Errorf("second build: built=%v err=%v, want skipped", built, err)
	}
}
