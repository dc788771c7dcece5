package scenario

import (
	"strings"
	"testing"
)

// Bad input must be one line that names the file and field.
func TestBadScenariosOneLineErrors(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"malformed", "requests: [a\n", "bad YAML"},
		{"unknown field", "requests: {a: {url: /, methd: GET}}\nphases: [{requests: 1}]\n", "field methd not found"},
		{"list for a request", "requests: {a: [x]}\nphases: [{requests: 1}]\n", "found a list where a mapping is expected"},
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
		_, err := Parse([]byte(c.yaml), "", nil)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		// Users wrote YAML: Go type names (scenario.rawRequest) must not show.
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || strings.Contains(msg, ".raw") {
			t.Errorf("%s: error %q, want one line containing %q", c.name, msg, c.want)
		}
	}
}

func TestVarsOverride(t *testing.T) {
	sc, err := Load("testdata/seed001.yaml", map[string]string{"workers": "7", "files": "70"})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Phases[1].Workers != 7 || sc.Phases[0].Iterations != 70 || sc.Files != 70 {
		t.Errorf("overrides not applied: workers %d iterations %d files %d", sc.Phases[1].Workers, sc.Phases[0].Iterations, sc.Files)
	}
	if _, err := Load("testdata/missing.yaml", nil); err == nil || !strings.Contains(err.Error(), "testdata/missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}
