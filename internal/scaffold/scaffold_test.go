package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

func input(t *testing.T, r *detect.Result, gets ...string) Input {
	dir := t.TempDir()
	jar := filepath.Join(dir, "target", "svc.jar")
	os.MkdirAll(filepath.Dir(jar), 0o755)
	os.WriteFile(jar, []byte("not read here"), 0o644)
	return Input{Jar: jar, Found: r, Name: "svc", Gets: gets, Rate: 75, SLO: DefaultSLO,
		ReadyTimeout: 45 * time.Second, Dir: filepath.Join(dir, "sizing")}
}

// The files load as jvmfit run reads them: app.yaml through internal/app,
// scenario.yaml through the load generator's parser.
func TestWrittenFilesLoadAsTheyAre(t *testing.T) {
	spring := &detect.Result{Framework: detect.SpringBoot, Version: "3.5.16", Wiring: detect.Wiring{
		Args: []string{"--server.port=${port}"}, Ready: "/actuator/health", ReadyStatus: 200, Sample: "/actuator/health"}}
	in := input(t, spring, "/api/items", "/api/items?page=2")
	in.Args = []string{"--spring.profiles.active=prod"}
	in.Env = map[string]string{"TZ": "UTC"}
	f, err := Write(in, false)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.Load(f.App)
	if err != nil {
		t.Fatal(err)
	}
	if a.Jar != in.Jar || !reflect.DeepEqual(a.Args, []string{"--server.port=${port}", "--spring.profiles.active=prod"}) ||
		a.Env["TZ"] != "UTC" || a.Port != 0 || a.Ready != "http://127.0.0.1:${port}/actuator/health" ||
		a.ReadyTimeout != 45*time.Second || a.Rate != 75 || a.SLO != DefaultSLO || a.Scenario != f.Scenario {
		t.Errorf("%+v", a)
	}
	s, err := scenario.Load(f.Scenario, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Phases) != 2 || s.Phases[0].Record || !s.Phases[1].Record || len(s.Requests) != 2 {
		t.Fatalf("%+v", s)
	}
	for _, r := range s.Requests {
		if r.Method != "GET" || !strings.HasPrefix(r.Name, "api_items") {
			t.Errorf("request %+v", r)
		}
	}
	b, _ := os.ReadFile(f.App)
	if strings.Contains(string(b), "GUESS") {
		t.Errorf("nothing was guessed:\n%s", b)
	}
	// A second init refuses to overwrite without --force, then overwrites.
	if _, err := Write(in, false); !errors.Is(err, ErrExists) {
		t.Errorf("second write: %v", err)
	}
	if _, err := Write(in, true); err != nil {
		t.Errorf("forced: %v", err)
	}
}

// Guesses are marked in app.yaml; a guessed readiness gives way to the
// user's first --get.
func TestGuessesAreMarked(t *testing.T) {
	in := input(t, detect.Guess("test"))
	f, err := Write(in, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.App)
	for _, want := range []string{"port: 8080", "# GUESS: the app's own port", `ready: "http://127.0.0.1:${port}/"`, "# GUESS: no health endpoint"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, b)
		}
	}
	if _, err := app.Load(f.App); err != nil {
		t.Error(err)
	}
	in = input(t, detect.Guess("test"), "/api/ping")
	if p, guessed := in.ReadyPath(); p != "/api/ping" || guessed {
		t.Errorf("ready %s guessed %v", p, guessed)
	}
}

func TestHelidonEnvAnd204(t *testing.T) {
	h := &detect.Result{Framework: detect.Helidon, Wiring: detect.Wiring{
		Env: map[string]string{"SERVER_PORT": "${port}"}, Ready: "/observe/health", ReadyStatus: 204, Sample: "/observe/health"}}
	f, err := Write(input(t, h), false)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.Load(f.App)
	if err != nil {
		t.Fatal(err)
	}
	if a.Env["SERVER_PORT"] != "${port}" || len(a.Args) != 0 {
		t.Errorf("%+v", a)
	}
	b, _ := os.ReadFile(f.App)
	if !strings.Contains(string(b), "204 No Content") {
		t.Errorf("%s", b)
	}
}

func TestCommandGetsTheTrialsJava(t *testing.T) {
	if got := command([]string{"java", "-Xss512k", "-jar", "a.jar"}); !reflect.DeepEqual(got, []string{"${java}", "${jvm_options}", "-Xss512k", "-jar", "a.jar"}) {
		t.Errorf("%q", got)
	}
	if got := command([]string{"/opt/jdk/bin/java", "-jar", "a.jar"}); got[0] != "/opt/jdk/bin/java" || got[1] != "${jvm_options}" {
		t.Errorf("%q", got)
	}
}

func TestCheckGets(t *testing.T) {
	if err := CheckGets([]string{"/ok", "/a?b=c"}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"api/items", "http://x/y", "/a b", ""} {
		if err := CheckGets([]string{bad}); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if got := requestNames([]string{"/", "/a/b", "/a-b", "/x?y=1"}); !reflect.DeepEqual(got, []string{"root", "a_b", "a_b_2", "x_y_1"}) {
		t.Errorf("%q", got)
	}
}

func TestRequestCheckOK(t *testing.T) {
	for _, c := range []struct {
		statuses map[string]int64
		ok       bool
	}{
		{map[string]int64{"200": 150}, true},
		{map[string]int64{"204": 3, "0": 96}, true},
		{map[string]int64{"200": 149, "404": 1}, false},
		{map[string]int64{"0": 10}, false},
		{map[string]int64{}, false},
	} {
		if got := (RequestCheck{Statuses: c.statuses}).OK(); got != c.ok {
			t.Errorf("%v: %v", c.statuses, got)
		}
	}
}

// A --command's relative jar is made relative to app.yaml's directory,
// where the app runs from; the port wiring follows as args.
func TestCommandJarRelativeToTheDescriptor(t *testing.T) {
	plain := &detect.Result{Framework: detect.Plain, Wiring: detect.Wiring{Args: []string{"--port=${port}"}, Ready: "/health", ReadyStatus: 200, Sample: "/health"}}
	in := input(t, plain)
	cwd, _ := os.Getwd()
	fromHere, _ := filepath.Rel(cwd, in.Jar) // as the user typed it, from where init runs
	in.Jar = ""
	in.Command = []string{"java", "-Xss512k", "-jar", fromHere}
	f, err := Write(in, false)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.Load(f.App)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"${java}", "${jvm_options}", "-Xss512k", "-jar", "../target/svc.jar"}
	if !reflect.DeepEqual(a.Command, want) || !reflect.DeepEqual(a.Args, []string{"--port=${port}"}) {
		t.Errorf("command %q args %q", a.Command, a.Args)
	}
}
