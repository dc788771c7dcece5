package run

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// pathServer is a loopback HTTP server that is not Java: it answers 200 on
// /health and under /api/, 404 elsewhere, and logs every path it is asked.
const pathServer = `package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
)

func main() {
	log, err := os.OpenFile(os.Args[2], os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	var mu sync.Mutex
	h := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fmt.Fprintln(log, r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/health" || strings.HasPrefix(r.URL.Path, "/api/") {
			w.Write([]byte("ok"))
			return
		}
		http.NotFound(w, r)
	}
	panic(http.ListenAndServe("127.0.0.1:"+os.Args[1], http.HandlerFunc(h)))
}
`

// buildPathServer compiles pathServer into dir.
func buildPathServer(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(dir, "pathserver.go")
	if err := os.WriteFile(src, []byte(pathServer), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "pathserver")
	cmd := exec.Command("go", "build", "-o", bin, src)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cannot build the test server: %v\n%s", err, out)
	}
	return bin
}

// Finding 1 of issue 12: under jvmfit run, the path of the scenario's base
// (here /api) must prefix every relative URL, although the trial points the
// scenario at the app's own address and port.
func TestRunKeepsScenarioBasePath(t *testing.T) {
	prereq.Root(t)
	clitest.NeedJava(t) // the trial inspects the JDK even when the command is not Java
	dir := t.TempDir()
	bin := buildPathServer(t, dir)
	paths := filepath.Join(dir, "paths.log")
	os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(`base: http://127.0.0.1:9/api
requests:
  item: {url: /items/1}
  list: {url: "list?page=${iter}"}
phases:
  - {name: measure, rate: 20, duration: 1s, sequence: [item, list]}
`), 0o644)
	desc := filepath.Join(dir, "app.yaml")
	os.WriteFile(desc, []byte(fmt.Sprintf(`name: pathserver
command: [%q, "${port}", %q]
ready: http://127.0.0.1:${port}/health
ready_timeout: 20s
scenario: scenario.yaml
slo: "success>=1"
`, bin, paths)), 0o644)

	stdout, stderr, code := clitest.Run(t, nil, "run", "--app", desc, "--memory", "128Mi", "--java", clitest.Java17,
		"--db", filepath.Join(dir, "t.db"), "--json")
	log, _ := os.ReadFile(paths)
	var r struct {
		Verdict string
		Load    struct {
			Requests int64
			Success  float64
			Errors   []string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("exit %d, no JSON result (%v)\nstderr: %s", code, err, stderr)
	}
	t.Logf("exit %d, verdict %s, %d requests, success %.2f, errors %v", code, r.Verdict, r.Load.Requests, r.Load.Success, r.Load.Errors)
	var api, other []string
	for _, p := range strings.Fields(string(log)) {
		switch {
		case strings.HasPrefix(p, "/api/"):
			api = append(api, p)
		case p != "/health":
			other = append(other, p)
		}
	}
	if len(other) > 0 {
		t.Errorf("%d requests missed the base path, e.g. %s", len(other), other[0])
	}
	if !slices.Contains(api, "/api/items/1") || !slices.Contains(api, "/api/list") {
		t.Errorf("the server saw %d paths under /api/ (%v), want /api/items/1 and /api/list", len(api), clitest.First(api, 4))
	}
	if code != 0 || r.Load.Requests < 15 || r.Load.Success != 1 {
		t.Errorf("exit %d, %d requests, success %.2f: want an OK trial with every request answered", code, r.Load.Requests, r.Load.Success)
	}
}
