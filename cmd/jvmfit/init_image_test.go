//go:build linux

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// greetQuarkusImage is greet-quarkus's quarkus-app in /deployments of the
// JDK 17 test image, started as Quarkus's own images start it: from its
// working directory, with a relative -jar.
const greetQuarkusImage = "jvmfit-test/greet-quarkus:jdk17"

func buildGreetQuarkusImage(t *testing.T) {
	t.Helper()
	prereq.Root(t)
	prereq.Docker(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	root, _ := filepath.Abs("../..")
	app := filepath.Join(root, "workloads", "greet-quarkus", "target", "quarkus-app")
	prereq.Built(t, filepath.Join(app, "quarkus-run.jar"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := image.Ensure(ctx, docker.Default(), root, image.JDK17Ref); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", app, filepath.Join(dir, "quarkus-app")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	df := "FROM " + image.JDK17Ref + "\nCOPY quarkus-app /deployments/\nWORKDIR /deployments\nENTRYPOINT [\"java\", \"-jar\", \"quarkus-run.jar\"]\n"
	os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(df), 0o644)
	if _, err := docker.Default().Run(ctx, nil, "build", "--quiet", "--tag", greetQuarkusImage, dir); err != nil {
		t.Fatal(err)
	}
}

// init --image reads the jar the image runs: Spring Boot in filecache's
// image (/app.jar), without starting it.
func TestInitImageDetectsTheJarItRuns(t *testing.T) {
	filecacheImage(t)
	dir := t.TempDir()
	stdout, stderr, code := run(t, nil, "init", "--image", image.FilecacheRef, "--out", dir, "--no-check")
	if code != 0 || !strings.Contains(stdout, "Spring Boot 3.5.16") || !strings.Contains(stdout, "/app.jar in the image") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "app.yaml"))
	for _, want := range []string{`image: "` + image.FilecacheRef + `"`, `args: ["--server.port=${port}"]`, "/actuator/health"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, b)
		}
	}
}

// Quarkus's image layout (quarkus-run.jar with lib/ in /deployments), then
// the check's one start through Docker.
func TestInitImageQuarkusChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a container")
	}
	buildGreetQuarkusImage(t)
	dir := t.TempDir()
	stdout, stderr, code := run(t, nil, "init", "--image", greetQuarkusImage, "--out", dir, "--get", "/api/greeting")
	if code != 0 || !strings.Contains(stdout, "Quarkus 3.33.2") || !strings.Contains(stdout, "/deployments/quarkus-run.jar in the image") ||
		!strings.Contains(stdout, "200×") || strings.Contains(stdout, "FAILED") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}
