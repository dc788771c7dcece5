//go:build linux

package initcmd

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
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
	root, _ := filepath.Abs("../../..")
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
	clitest.FilecacheImage(t)
	dir := t.TempDir()
	stdout, stderr, code := clitest.Run(t, nil, "init", "--image", image.FilecacheRef, "--out", dir, "--no-check")
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
	stdout, stderr, code := clitest.Run(t, nil, "init", "--image", greetQuarkusImage, "--out", dir, "--get", "/api/greeting")
	if code != 0 || !strings.Contains(stdout, "Quarkus 3.33.2") || !strings.Contains(stdout, "/deployments/quarkus-run.jar in the image") ||
		!strings.Contains(stdout, "200×") || strings.Contains(stdout, "FAILED") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// The refused image: java through PATH (here the engine's default
// PATH, to /usr/bin/java, a link to the JDK), no JAVA_HOME, no shell.
// init reads its jar, the check's trial finds its JDK, and a run at 256Mi
// is OK.
func TestInitImageWithoutJavaHome(t *testing.T) {
	if testing.Short() {
		t.Skip("starts containers")
	}
	ref := greetPlainDistroless(t)
	dir := t.TempDir()
	stdout, stderr, code := clitest.Run(t, nil, "init", "--image", ref, "--out", dir, "--get", "/api/greeting")
	if code != 0 || !strings.Contains(stdout, "JDK's HTTP server") || !strings.Contains(stdout, "200×") || strings.Contains(stdout, "FAILED") {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = clitest.Run(t, nil, "run", "--app", filepath.Join(dir, "app.yaml"), "--memory", "256Mi", "--cpus", "0",
		"--warmup", "2s", "--duration", "3s", "--slo", "success>=0.999", "--db", filepath.Join(dir, "x.db"))
	if code != 0 || !strings.Contains(stdout, "| OK |") || !strings.Contains(stdout, "JDK 17") {
		t.Fatalf("run at 256Mi: exit %d\n%s%s", code, stdout, stderr)
	}
}

// greetPlainDistroless builds greet-plain on the distroless-style JDK 17
// image (no shell, no JAVA_HOME) and returns its reference.
func greetPlainDistroless(t *testing.T) string {
	t.Helper()
	prereq.Root(t)
	prereq.Docker(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	root, _ := filepath.Abs("../../..")
	jar := filepath.Join(root, "workloads", "greet-plain", "target", "greet-plain.jar")
	prereq.Built(t, jar)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := docker.Default()
	const ref = "jvmfit-test/greet-plain:distroless"
	if err := image.Ensure(ctx, e, root, image.DistrolessRef); err != nil {
		t.Fatal(err)
	}
	if _, err := image.App(ctx, e, image.DistrolessRef, jar, ref); err != nil {
		t.Fatal(err)
	}
	if env, _ := e.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config.Env}}", ref); strings.Contains(env, "JAVA_HOME") {
		t.Fatalf("%s sets JAVA_HOME: %s", ref, env)
	}
	return ref
}

// run --image --get without --ready: the jar the image runs is detected
// as for --jar, and --get is the load.
func TestRunImageGet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts containers")
	}
	ref := greetPlainDistroless(t)
	db := filepath.Join(t.TempDir(), "i.db")
	stdout, stderr, code := clitest.Run(t, nil, "run", "--image", ref, "--get", "/api/greeting", "--rate", "20", "--memory", "256Mi",
		"--cpus", "0", "--warmup", "2s", "--duration", "3s", "--db", db)
	if code != 0 || !strings.Contains(stdout, "| OK |") || !strings.Contains(stdout, "60 requests") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// A buildpack-style image: the JRE in a buildpack's layer (no JAVA_HOME,
// not on the image's PATH), Spring Boot's jar unpacked in /workspace and
// started by its launcher class, no -jar anywhere. init finds the unpacked
// jar, the trial finds the JRE, and the check passes.
func TestInitImageBuildpackStyle(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a container")
	}
	prereq.Root(t)
	prereq.Docker(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	root, _ := filepath.Abs("../../..")
	jar := filepath.Join(root, "workloads", "greet-spring", "target", "greet-spring.jar")
	prereq.Built(t, jar)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := docker.Default()
	if err := image.Ensure(ctx, e, root, image.BuildpackRef); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	unzip(t, jar, filepath.Join(dir, "workspace"))
	df := "FROM " + image.BuildpackRef + "\nCOPY workspace /workspace/\nWORKDIR /workspace\n" +
		"ENTRYPOINT [\"/layers/paketo-buildpacks_bellsoft-liberica/jre/bin/java\", \"org.springframework.boot.loader.launch.JarLauncher\"]\n"
	os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(df), 0o644)
	const ref = "jvmfit-test/greet-spring:buildpack"
	if _, err := e.Run(ctx, nil, "build", "--quiet", "--tag", ref, dir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sizing")
	stdout, stderr, code := clitest.Run(t, nil, "init", "--image", ref, "--out", out, "--get", "/api/greeting")
	if code != 0 || !strings.Contains(stdout, "Spring Boot 3.5.16") || !strings.Contains(stdout, "unpacked in /workspace") ||
		!strings.Contains(stdout, "200×") || strings.Contains(stdout, "FAILED") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// unzip writes a jar's files below dir.
func unzip(t *testing.T, jar, dir string) {
	t.Helper()
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || strings.Contains(f.Name, "..") {
			continue
		}
		dst := filepath.Join(dir, f.Name)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
