package initcmd

import (
	"archive/zip"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// zipJar writes a jar of the given entries into dir.
func zipJar(t *testing.T, dir, name string, entries map[string]string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for n, body := range entries {
		w, _ := zw.Create(n)
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// Issue 22: malformed input is one line, exit 2, and nothing is written.
func TestInitBadInputExit2(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.jar")
	os.WriteFile(corrupt, []byte("PK\x03\x04 not a zip at all"), 0o644)
	noMain := zipJar(t, dir, "nomain.jar", map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\n\r\n"})
	good := zipJar(t, dir, "app.jar", map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\nMain-Class: a.Main\r\n\r\n"})
	out := filepath.Join(dir, "out")
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"directory":     {[]string{"--jar", dir}, "is a directory"},
		"corrupt jar":   {[]string{"--jar", corrupt}, "is not a jar"},
		"no main":       {[]string{"--jar", noMain}, "no Main-Class"},
		"missing jar":   {[]string{"--jar", filepath.Join(dir, "nope.jar")}, "does not exist"},
		"get no slash":  {[]string{"--jar", good, "--get", "api/items"}, "starts with '/'"},
		"nothing":       {nil, "give one of --jar"},
		"jar and image": {[]string{"--jar", good, "--image", "x:1"}, "give one of --jar"},
		"zero rate":     {[]string{"--jar", good, "--rate", "0"}, "--rate"},
		"bad env":       {[]string{"--jar", good, "--env", "NOEQUALS"}, "--env"},
		"bad slo":       {[]string{"--jar", good, "--slo", "p99<=soon"}, "--slo"},
		"bad limit":     {[]string{"--jar", good, "--check-memory", "lots"}, "--check-memory"},
		"command jar":   {[]string{"--command", "java -jar " + corrupt}, "is not a jar"},
	} {
		_, stderr, code := clitest.Run(t, nil, append([]string{"init", "--out", out}, c.args...)...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "jvmfit: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line with %q", name, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: %s was written", name, out)
		}
	}
}

// An unknown framework gets its files, guesses marked, exit 0: here a main
// class that is not even in the jar, so the check's start fails too.
func TestInitUnknownFrameworkWritesGuesses(t *testing.T) {
	clitest.NeedJava(t)
	dir := t.TempDir()
	jar := zipJar(t, dir, "mystery.jar", map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\nMain-Class: a.Main\r\n\r\n"})
	stdout, stderr, code := clitest.Run(t, nil, "init", "--jar", jar, "--out", dir, "--ready-timeout", "10s", "--java", clitest.Java17)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), "# GUESS:") != 2 || !strings.Contains(stdout, "guess:") || !strings.Contains(stdout, "KO exited") {
		t.Errorf("app.yaml:\n%s\nstdout:\n%s", b, stdout)
	}
	// The files stand: a second init needs --force.
	if _, stderr, code := clitest.Run(t, nil, "init", "--jar", jar, "--out", dir, "--no-check"); code != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("second init: exit %d, %q", code, stderr)
	}
}

// An app that never answers its readiness URL: one line, exit 2, naming
// the URL tried and its last answer. The plain service is told another
// port after jvmfit's (--port=N wins), so nothing listens on ${port}.
func TestInitNeverReadyNamesURLAndLastAnswer(t *testing.T) {
	clitest.NeedJava(t)
	jar := filepath.Join("..", "..", "..", "workloads", "greet-plain", "target", "greet-plain.jar")
	prereq.Built(t, jar)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir := t.TempDir()
	stdout, stderr, code := clitest.Run(t, nil, "init", "--jar", jar, "--out", dir, "--java", clitest.Java17,
		"--arg", "--port="+strconv.Itoa(elsewhere), "--ready-timeout", "6s")
	// stderr: the check's progress lines, then the error's one line.
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != 2 || !strings.HasPrefix(last, "jvmfit: not ready") || !strings.Contains(last, "/health within 6s") ||
		!strings.Contains(last, "http://127.0.0.1:") || !strings.Contains(last, "last answer: connection refused") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	// The app's log is kept beside the files, for the user to read.
	if logs, _ := filepath.Glob(filepath.Join(dir, "init-logs", "*.log")); len(logs) != 1 || !strings.Contains(stdout, logs[0]) {
		t.Errorf("logs %q, stdout:\n%s", logs, stdout)
	}
}

// For each framework in workloads/: jvmfit init, then jvmfit run with the
// files it wrote, OK at a generous limit and KO at a tiny one. The trials
// are short (2 s warm-up, 3 s measured) on a shared machine, so the run
// has no CPU quota and judges the answers (success), not the written SLO's
// p99, throughput and start time, which measure the machine's load as much
// as the wiring (a cold Spring Boot at 1 CPU here: p50 0.6 s).
func TestInitThenRunEveryFramework(t *testing.T) {
	const answersSLO = "success>=0.999"
	if testing.Short() {
		t.Skip("starts five real services several times each")
	}
	clitest.NeedJava(t)
	prereq.Java(t, "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java") // Helidon 4 needs 21+
	for _, c := range []struct{ jar, framework string }{
		{"greet-spring/target/greet-spring.jar", "Spring Boot 3.5.16"},
		{"greet-quarkus/target/quarkus-app/quarkus-run.jar", "Quarkus 3.33.2"},
		{"greet-micronaut/target/greet-micronaut.jar", "Micronaut 4.10.15"},
		{"greet-helidon/target/greet-helidon.jar", "Helidon 4.5.0"},
		{"greet-plain/target/greet-plain.jar", "a plain main class on the JDK's HTTP server"},
	} {
		t.Run(strings.Split(c.jar, "/")[0], func(t *testing.T) {
			jar := filepath.Join("..", "..", "..", "workloads", c.jar)
			prereq.Built(t, jar)
			dir := t.TempDir()
			t0 := time.Now()
			stdout, stderr, code := clitest.Run(t, []string{"JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"},
				"init", "--jar", jar, "--get", "/api/greeting?name=jvmfit", "--out", dir)
			if code != 0 || !strings.Contains(stdout, c.framework) || !strings.Contains(stdout, "200×") || strings.Contains(stdout, "GUESS") {
				t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
			}
			app := filepath.Join(dir, "app.yaml")
			db := filepath.Join(dir, "x.db")
			stdout, stderr, code = clitest.Run(t, []string{"JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"},
				"run", "--app", app, "--memory", "1Gi", "--cpus", "0", "--warmup", "2s", "--duration", "3s", "--db", db, "--slo", answersSLO)
			if code != 0 || !strings.Contains(stdout, "| OK |") {
				t.Fatalf("run at 1Gi: exit %d\n%s%s", code, stdout, stderr)
			}
			t.Logf("%s: init to a first OK trial in %s: %s", c.framework, time.Since(t0).Round(100*time.Millisecond), strings.SplitN(stdout, "\n", 2)[0])
			stdout, stderr, code = clitest.Run(t, []string{"JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"},
				"run", "--app", app, "--memory", "16Mi", "--cpus", "0", "--warmup", "2s", "--duration", "3s", "--db", db, "--slo", answersSLO)
			if code != 1 || !strings.Contains(stdout, "| KO ") {
				t.Fatalf("run at 16Mi: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// --command: the command as the user runs it; its -jar is detected, its
// java becomes the trial's, and the check passes.
func TestInitCommand(t *testing.T) {
	clitest.NeedJava(t)
	jar := filepath.Join("..", "..", "..", "workloads", "greet-plain", "target", "greet-plain.jar")
	prereq.Built(t, jar)
	dir := t.TempDir()
	stdout, stderr, code := clitest.Run(t, nil, "init", "--command", "java -Xss512k -jar "+jar, "--get", "/api/greeting", "--out", dir, "--java", clitest.Java17)
	if code != 0 || !strings.Contains(stdout, "greet-plain: a plain main class") || !strings.Contains(stdout, "200×") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "app.yaml"))
	abs, _ := filepath.Abs(jar)
	if !strings.Contains(string(b), `command: ["${java}", "${jvm_options}", "-Xss512k", "-jar", "`+abs+`"]`) || !strings.Contains(string(b), `args: ["--port=${port}"]`) {
		t.Errorf("app.yaml:\n%s", b)
	}
}
