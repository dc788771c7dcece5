package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

var greetPlain = filepath.Join("..", "..", "..", "workloads", "greet-plain", "target", "greet-plain.jar")

// The app flags (--jar, --get, --arg, --env) are refused in one line,
// exit 2, before anything is stored, on each of the five commands.
func TestOwnAppFlagsBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	prereq.Built(t, greetPlain)
	dir := t.TempDir()
	db := filepath.Join(dir, "bad.db")
	desc := filepath.Join(dir, "app.yaml")
	os.WriteFile(desc, []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"), 0o644)
	corrupt := filepath.Join(dir, "corrupt.jar")
	os.WriteFile(corrupt, []byte("PK\x03\x04 not a zip"), 0o644)
	sc := filepath.Join(dir, "s.yaml")
	os.WriteFile(sc, []byte("requests: {}\n"), 0o644)
	cases := map[string]struct {
		args []string
		want string
	}{
		"get without slash": {[]string{"--jar", greetPlain, "--get", "api/greeting"}, "starts with '/'"},
		"jar with app":      {[]string{"--jar", greetPlain, "--app", desc}, "give one of --app, --jar or --image"},
		"directory as jar":  {[]string{"--jar", dir}, "is a directory"},
		"missing jar":       {[]string{"--jar", filepath.Join(dir, "none.jar")}, "does not exist"},
		"corrupt jar":       {[]string{"--jar", corrupt}, "--jar"},
		"get with app":      {[]string{"--app", desc, "--get", "/a"}, "go with --jar or --image"},
		"env without =":     {[]string{"--jar", greetPlain, "--env", "PORT"}, "write NAME=value"},
		"get and scenario":  {[]string{"--jar", greetPlain, "--get", "/a", "--scenario", sc}, "not both"},
		"image get no /":    {[]string{"--image", "example/app:1", "--ready", "http://127.0.0.1:8080/", "--get", "a"}, "starts with '/'"},
		"image not there":   {[]string{"--image", "jvmfit-test/none:1", "--get", "/a"}, "--image jvmfit-test/none:1"},
	}
	for _, command := range []string{"run", "minmem", "sweep", "compare", "tune"} {
		for name, c := range cases {
			args := append([]string{command, "--db", db, "--java", clitest.Java17}, c.args...)
			if command == "run" {
				args = append(args, "--memory", "256Mi")
			}
			_, stderr, code := clitest.Run(t, []string{"TMPDIR=" + dir}, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "jvmfit: ") || !strings.Contains(lines[0], c.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want exit 2 and one line with %q", command, name, code, stderr, c.want)
			}
			clitest.NoExperiments(t, db, command+" "+name)
		}
	}
}

// run --jar --get: the framework gives the port and readiness, --get the
// load. The GET is really made: a path the app does not serve is KO.
func TestRunJarGet(t *testing.T) {
	prereq.Root(t)
	clitest.NeedJava(t)
	prereq.Built(t, greetPlain)
	db := filepath.Join(t.TempDir(), "j.db")
	args := []string{"run", "--jar", greetPlain, "--rate", "20", "--memory", "256Mi", "--java", clitest.Java17, "--db", db,
		"--warmup", "2s", "--duration", "3s"}
	stdout, stderr, code := clitest.Run(t, nil, append(args, "--get", "/api/greeting")...)
	if code != 0 || !strings.Contains(stdout, "| OK |") || !strings.Contains(stdout, "20.0 req/s") || !strings.Contains(stderr, "--port=") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	scs, _ := filepath.Glob(db + ".logs/apps/greet-plain-*/scenario.yaml")
	if len(scs) != 1 {
		t.Fatalf("generated scenarios %v; want one under %s.logs/apps", scs, db)
	}
	if b, _ := os.ReadFile(scs[0]); !strings.Contains(string(b), `url: "/api/greeting"`) {
		t.Errorf("generated scenario does not GET /api/greeting:\n%s", b)
	}
	stdout, stderr, code = clitest.Run(t, nil, append(args, "--get", "/nope")...)
	if code != 1 || !strings.Contains(stdout, "KO slo") || !strings.Contains(stdout, "GET http://127.0.0.1:") || !strings.Contains(stdout, "/nope: unexpected status 404") {
		t.Errorf("a --get the app does not serve: exit %d, want 1 and KO\n%s%s", code, stdout, stderr)
	}
}

// One command from a jar to a proven answer, on a small budget.
func TestTuneJar(t *testing.T) {
	prereq.Root(t)
	clitest.NeedJava(t)
	prereq.Built(t, greetPlain)
	db := filepath.Join(t.TempDir(), "t.db")
	out := tuneJSON(t, clitest.ExperimentRun(t, "tune", "--jar", greetPlain, "--get", "/api/greeting", "--rate", "20",
		"--java", clitest.Java17, "--db", db, "--budget", "7", "--warmup", "2s", "--duration", "2s", "--soak", "4s",
		"--generous", "256Mi", "--json"))
	if out.Verdict == "none" || out.MemoryBytes <= 0 || out.MemoryBytes > 256<<20 || len(out.Options) == 0 || out.Trials > 7 {
		t.Fatalf("no answer within the budget: %+v", out)
	}
	if out.Soak.Verdict != "OK" && out.Soak.Verdict != "KO" {
		t.Errorf("no soak: %+v", out)
	}
}
