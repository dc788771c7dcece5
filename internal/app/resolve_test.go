package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The one choice of an app: every combination a command refuses, and a
// descriptor with jvmfit run's --scenario.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	desc := filepath.Join(dir, "app.yaml")
	os.WriteFile(desc, []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"), 0o644)
	sc := filepath.Join(dir, "s.yaml")
	os.WriteFile(sc, []byte("requests: {}\n"), 0o644)
	for _, c := range []struct {
		src  Source
		want string
	}{
		{Source{Descriptor: desc, Jar: "a.jar", Run: true}, "give one of --app, --jar or --image"},
		{Source{Descriptor: desc, Image: "i"}, "give one of --app, --jar or --image"},
		{Source{}, "give --app app.yaml, --jar"},
		{Source{Run: true}, "give --app app.yaml, --jar"},
		{Source{Descriptor: desc, Ready: "http://x/"}, "--ready goes with --jar or --image"},
		{Source{Descriptor: desc, Scenario: sc}, "--scenario goes with --jar or --image"},
		{Source{Jar: dir, Detected: func(string, string) (*App, error) { return nil, nil }}, "is a directory"},
		{Source{Jar: filepath.Join(dir, "none.jar"), Detected: func(string, string) (*App, error) { return nil, nil }}, "does not exist"},
		{Source{Descriptor: desc, Scenario: filepath.Join(dir, "none.yaml"), Run: true}, "does not exist"},
		{Source{Descriptor: desc, Engine: "lxc"}, `--engine "lxc": give docker or podman`},
		{Source{Descriptor: desc, Engine: EnginePodman}, "--engine is for an image app"},
		{Source{Descriptor: desc, ContainerPort: 8080}, "--container-port goes with --image"},
	} {
		if _, err := Resolve(c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want %q", c.src, err, c.want)
		}
	}
	a, err := Resolve(Source{Descriptor: desc, Scenario: sc, Run: true})
	if err != nil || a.Name != "x" || a.Scenario != sc {
		t.Errorf("run's --scenario with a descriptor: %+v, %v", a, err)
	}
}
