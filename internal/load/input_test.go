package load

import (
	"context"
	"strings"
	"testing"
)

// Bad input must be one line that names the file and field.
func TestBadScenariosOneLineErrors(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"malformed", "requests: [a\n", "bad YAML"},
		{"unknown field", "requests: {a: {url: /, methd: GET}}\nphases: [{requests: 1}]\n", "field methd not found"},
		{"unknown variable", "requests: {a: {url: '/x/${nope}'}}\nphases: [{requests: 1}]\n", "unknown variable ${nope}"},
		{"unknown variable in number", "requests: {a: {url: /}}\nphases: [{rate: '${r}', duration: 1s}]\n", "phases[0]: rate: unknown variable ${r}"},
		{"rate zero", "requests: {a: {url: /}}\nphases: [{model: open, rate: 0, duration: 1s}]\n", "rate: must be > 0"},
		{"rate negative", "requests: {a: {url: /}}\nphases: [{rate: -5, duration: 1s}]\n", "rate: must be > 0"},
		{"no limit", "requests: {a: {url: /}}\nphases: [{model: closed}]\n", "needs duration:"},
		{"unknown request", "requests: {a: {url: /}}\nphases: [{requests: 1, sequence: [b]}]\n", `"b" is not a defined request`},
		{"file without files", "requests: {a: {url: '/f${file}'}}\nphases: [{requests: 1}]\n", "vars.files is not set"},
		{"bad duration", "requests: {a: {url: /}}\nphases: [{duration: soon}]\n", `"soon" is not a duration`},
		{"two bodies", "requests: {a: {url: /, body: x, body_size: 3}}\nphases: [{requests: 1}]\n", "only one of"},
		{"https", "base: https://127.0.0.1:1\nrequests: {a: {url: /}}\nphases: [{requests: 1}]\n", "https is not supported"},
		{"empty", "", "empty file"},
		{"no phases", "requests: {a: {url: /}}\n", "phases: none defined"},
	}
	for _, c := range cases {
		_, err := ParseScenario([]byte(c.yaml), "", nil)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q, want one line containing %q", c.name, msg, c.want)
		}
	}
}

func TestVarsOverride(t *testing.T) {
	sc, err := LoadScenario("testdata/seed001.yaml", map[string]string{"workers": "7", "files": "70"})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Phases[1].Workers != 7 || sc.Phases[0].Iterations != 70 || sc.Files != 70 {
		t.Errorf("overrides not applied: workers %d iterations %d files %d", sc.Phases[1].Workers, sc.Phases[0].Iterations, sc.Files)
	}
	if _, err := LoadScenario("testdata/missing.yaml", nil); err == nil || !strings.Contains(err.Error(), "testdata/missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

func TestLoopbackOnly(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{"http://127.0.0.1:8080/", "http://localhost:1/", "http://[::1]:80/", "http://127.1.2.3:5/"} {
		sc, err := SingleURL("GET", u)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(ctx, sc, Options{}); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	sc, _ := SingleURL("GET", "http://10.1.2.3:8080/x")
	err := Validate(ctx, sc, Options{})
	if err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("remote target: %v", err)
	}
	if err := Validate(ctx, sc, Options{AllowRemote: true}); err != nil {
		t.Errorf("remote allowed: %v", err)
	}
	// Options.Base is checked too.
	sc, _ = SingleURL("GET", "http://127.0.0.1:1/x")
	if err := Validate(ctx, sc, Options{Base: "http://192.0.2.1:80"}); err == nil {
		t.Error("remote base override accepted")
	}
}

func TestUnreachableTarget(t *testing.T) {
	sc, _ := SingleURL("GET", "http://127.0.0.1:"+closedPort(t)+"/x")
	err := Reachable(context.Background(), sc, Options{})
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unreachable: %v", err)
	}
}
