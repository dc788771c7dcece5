package initcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

var java17Home = []string{"JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"}

// slowStart is the readiness timeout these tests give init (and so the
// app.yaml run reads): a cold Spring Boot took 55 s to be ready here with
// the machine's load average near 40.
const slowStart = "240s"

// The samples that move their own paths and ports in their jar's
// configuration (docs/app-paths.md): init reads them and writes a
// readiness URL on the management port, and run is OK with the files as
// written. The trials are as short as TestInitThenRunEveryFramework's and
// judge the answers only.
func TestInitThenRunAppThatMovesItsPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two real services twice each")
	}
	clitest.NeedJava(t)
	for _, c := range []struct{ jar, ready, read string }{
		{"greet-spring-ctx/target/greet-spring-ctx.jar", `ready: "http://127.0.0.1:${management_port}/manage/health"`,
			"management.server.port=8081 (BOOT-INF/classes/application.yml)"},
		{"greet-quarkus-mgmt/target/quarkus-app/quarkus-run.jar", `ready: "http://127.0.0.1:${management_port}/q/health/ready"`,
			"quarkus.management.enabled=true (app/greet-quarkus-mgmt-0.1.0-SNAPSHOT.jar!/application.properties)"},
	} {
		t.Run(strings.Split(c.jar, "/")[0], func(t *testing.T) {
			jar := filepath.Join("..", "..", "..", "workloads", c.jar)
			prereq.Built(t, jar)
			dir := t.TempDir()
			stdout, stderr, code := clitest.Run(t, java17Home, "init", "--jar", jar, "--get", "/greet/api/greeting?name=jvmfit", "--out", dir, "--ready-timeout", slowStart)
			if code != 0 || !strings.Contains(stdout, "config:   "+c.read) || !strings.Contains(stdout, "GET /greet/api/greeting?name=jvmfit: ") ||
				!strings.Contains(stdout, "200×") || strings.Contains(stdout, "GUESS") {
				t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
			}
			b, _ := os.ReadFile(filepath.Join(dir, "app.yaml"))
			if !strings.Contains(string(b), c.ready) || !strings.Contains(string(b), "# Read from the jar: "+c.read) {
				t.Errorf("app.yaml:\n%s", b)
			}
			runOK(t, java17Home, dir)
		})
	}
}

// A --get without the app's context path is taken as written; its 404s
// fail the check, and init names the context path and where it was set.
func TestInitGetOutsideTheContextPathSaysSo(t *testing.T) {
	clitest.NeedJava(t)
	jar := filepath.Join("..", "..", "..", "workloads", "greet-quarkus-mgmt", "target", "quarkus-app", "quarkus-run.jar")
	prereq.Built(t, jar)
	dir := t.TempDir()
	stdout, stderr, code := clitest.Run(t, java17Home, "init", "--jar", jar, "--get", "/api/greeting", "--out", dir)
	want := "the app's paths are under /greet (quarkus.http.root-path in app/greet-quarkus-mgmt-0.1.0-SNAPSHOT.jar!/application.properties); " +
		"--get is taken as written: did you mean --get /greet/api/greeting?"
	if code != 1 || !strings.Contains(stdout, "404×") || !strings.Contains(stdout, want) {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
	if !strings.Contains(string(b), `url: "/api/greeting"`) {
		t.Errorf("scenario.yaml:\n%s", b)
	}
}

// The 404 fallback: greet-spring's actuator is moved to / by an
// environment variable (which init does not read) in jvmfit's environment,
// which the app inherits. init's check finds /health among Spring Boot's
// usual paths, says so, and writes it; run is then OK with no edit.
func TestInitReadyFallbackFindsTheMovedHealth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Spring Boot service three times")
	}
	clitest.NeedJava(t)
	jar := filepath.Join("..", "..", "..", "workloads", "greet-spring", "target", "greet-spring.jar")
	prereq.Built(t, jar)
	dir := t.TempDir()
	env := append([]string{"MANAGEMENT_ENDPOINTS_WEB_BASE_PATH=/"}, java17Home...)
	stdout, stderr, code := clitest.Run(t, env, "init", "--jar", jar, "--out", dir, "--ready-timeout", slowStart)
	if code != 0 || !strings.Contains(stdout, "ready:    http://127.0.0.1:${port}/actuator/health answered 404; the framework's alternative http://127.0.0.1:") ||
		!strings.Contains(stdout, "/health answered 2xx: app.yaml now waits for http://127.0.0.1:${port}/health") ||
		!strings.Contains(stdout, "GET /health: ") || !strings.Contains(stdout, "200×") {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "app.yaml"))
	if !strings.Contains(string(b), `ready: "http://127.0.0.1:${port}/health"`) {
		t.Errorf("app.yaml:\n%s", b)
	}
	// Both checks passed in the end: no log is left beside the files.
	if _, err := os.Stat(filepath.Join(dir, "init-logs")); !os.IsNotExist(err) {
		logs, _ := filepath.Glob(filepath.Join(dir, "init-logs", "*"))
		t.Errorf("init-logs left: %q", logs)
	}
	runOK(t, env, dir)
}

// runOK runs the app.yaml init wrote in dir once at a generous limit,
// judging the answers, at a low rate: it checks the wiring, and at 50 req/s
// for 3 s every answer came too late with the machine's load average near
// 40. The warm-up is longer than init's check: with readiness on the
// management port, the first requests on the app's port meet a cold REST
// stack.
func runOK(t *testing.T, env []string, dir string) {
	t.Helper()
	stdout, stderr, code := clitest.Run(t, env, "run", "--app", filepath.Join(dir, "app.yaml"), "--memory", "1Gi", "--cpus", "0",
		"--rate", "5", "--warmup", "10s", "--duration", "6s", "--db", filepath.Join(dir, "x.db"), "--slo", "success>=0.999")
	if code != 0 || !strings.Contains(stdout, "| OK |") {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
}

// The YAML-free flags read the jar's configuration as init does: run
// --jar on the Quarkus sample, its readiness on the management port.
func TestRunJarReadsTheAppsPaths(t *testing.T) {
	clitest.NeedJava(t)
	jar := filepath.Join("..", "..", "..", "workloads", "greet-quarkus-mgmt", "target", "quarkus-app", "quarkus-run.jar")
	prereq.Built(t, jar)
	dir := t.TempDir()
	stdout, stderr, code := clitest.Run(t, java17Home, "run", "--jar", jar, "--get", "/greet/api/greeting", "--memory", "1Gi", "--cpus", "0",
		"--rate", "5", "--warmup", "10s", "--duration", "6s", "--db", filepath.Join(dir, "x.db"), "--slo", "success>=0.999")
	if code != 0 || !strings.Contains(stdout, "| OK |") {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
}

// Malformed YAML in the jar: one line says which file was ignored, and
// the files are written with the framework's defaults, and load.
func TestInitMalformedConfigInTheJarIsIgnored(t *testing.T) {
	dir := t.TempDir()
	jar := zipJar(t, dir, "app.jar", map[string]string{
		"META-INF/MANIFEST.MF":                         "Manifest-Version: 1.0\r\nMain-Class: org.springframework.boot.loader.launch.JarLauncher\r\nSpring-Boot-Version: 3.5.16\r\n\r\n",
		"BOOT-INF/lib/spring-boot-actuator-3.5.16.jar": "",
		"BOOT-INF/classes/application.yml":             "server:\n  servlet: [context-path: /x\n",
	})
	out := filepath.Join(dir, "out")
	stdout, stderr, code := clitest.Run(t, nil, "init", "--jar", jar, "--out", out, "--no-check")
	if code != 0 || strings.Count(stdout, "ignored:") != 1 || !strings.Contains(stdout, "ignored:  BOOT-INF/classes/application.yml: ") ||
		!strings.Contains(stdout, "ready:    http://127.0.0.1:${port}/actuator/health") || stderr != "" {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	a, err := app.Load(filepath.Join(out, "app.yaml"))
	if err != nil || a.Ready != "http://127.0.0.1:${port}/actuator/health" {
		t.Errorf("%v %+v", err, a)
	}
	b, _ := os.ReadFile(filepath.Join(out, "app.yaml"))
	if !strings.Contains(string(b), "# Ignored (the framework's defaults stand): BOOT-INF/classes/application.yml: ") {
		t.Errorf("app.yaml:\n%s", b)
	}
}
