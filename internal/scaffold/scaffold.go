// Package scaffold writes the app.yaml and scenario.yaml that `jvmfit init`
// gives a user for their own service: the port wiring and readiness URL
// that detection found (or guessed, marked as such), a first scenario of
// one GET per path, a rate and an SLO. It then checks them by starting the
// app once (check.go).
package scaffold

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/detect"
)

// Defaults for what the user does not give.
const (
	DefaultRate = 50
	DefaultSLO  = "p99<=200ms,success>=0.999,throughput>=0.95*rate,start<=60s"
)

// Input is what init knows about the app.
type Input struct {
	// Exactly one of Jar, Image and Command says what runs the app.
	Jar     string   // the jar, as the user gave it
	Image   string   // a container image
	Command []string // a full command line; its java is ${java} when it is plain "java"
	// Found is the detection (Framework Unknown with every wiring guessed
	// when nothing could be read).
	Found *detect.Result
	Name  string
	// Java is a JDK to write as java: when the one jvmfit would find is too
	// old for the app's classes; JavaWhy says so in app.yaml.
	Java, JavaWhy string
	// Gets are the paths of the first scenario's GETs; empty means the
	// framework's own health or info endpoint.
	Gets         []string
	Rate         float64
	SLO          string
	Args         []string          // the app's own arguments, after the port wiring
	Env          map[string]string // the app's environment, over the port wiring
	ReadyTimeout time.Duration
	Dir          string // where app.yaml and scenario.yaml go
}

// Files are the paths written.
type Files struct{ App, Scenario string }

// CheckGets refuses a --get that is not a path on the app.
func CheckGets(gets []string) error {
	for _, g := range gets {
		if !strings.HasPrefix(g, "/") {
			return fmt.Errorf("--get %q: give a path that starts with '/', e.g. --get /api/items", g)
		}
		if strings.ContainsAny(g, " \t\n") {
			return fmt.Errorf("--get %q: a path has no spaces (escape them as %%20)", g)
		}
	}
	return nil
}

// ErrExists is returned when a file would be overwritten without leave.
var ErrExists = errors.New("exists")

// Write writes app.yaml and scenario.yaml into in.Dir. With force false an
// existing file is refused (ErrExists) before anything is written.
func Write(in Input, force bool) (Files, error) {
	if err := CheckGets(in.Gets); err != nil {
		return Files{}, err
	}
	f := Files{App: filepath.Join(in.Dir, "app.yaml"), Scenario: filepath.Join(in.Dir, "scenario.yaml")}
	if !force {
		for _, p := range []string{f.App, f.Scenario} {
			if _, err := os.Stat(p); err == nil {
				return f, fmt.Errorf("%s %w: --force overwrites it, or --out names another directory", p, ErrExists)
			}
		}
	}
	if err := os.MkdirAll(in.Dir, 0o755); err != nil {
		return f, err
	}
	app, err := appYAML(in)
	if err != nil {
		return f, err
	}
	if err := os.WriteFile(f.App, []byte(app), 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Scenario, []byte(scenarioYAML(in)), 0o644); err != nil {
		return f, err
	}
	return f, nil
}

// Paths are the GETs of the first scenario: the user's, or the
// framework's own endpoint.
func (in Input) Paths() []string {
	if len(in.Gets) > 0 {
		return in.Gets
	}
	return []string{in.Found.Sample}
}

// ReadyPath is the readiness path: the framework's, or, when that was a
// guess and the user named GETs, the first of them (a URL the user knows
// answers once the app serves).
func (in Input) ReadyPath() (path string, guessed bool) {
	if readyGuessed(in.Found) && len(in.Gets) > 0 {
		return in.Gets[0], false
	}
	return in.Found.Ready, readyGuessed(in.Found)
}

// ReadyURL is the readiness URL app.yaml gets, with its placeholders.
func (in Input) ReadyURL() string {
	path, guessed := in.ReadyPath()
	if !guessed && in.readyOnManagementPort() {
		return "http://127.0.0.1:" + detect.ManagementPortVar + path
	}
	return "http://127.0.0.1:${port}" + path
}

// ContextHint says, for a --get that answered 404, that the app's paths
// have a prefix the path lacks; "" when that is not the case.
func (in Input) ContextHint(path string) string {
	ctx := in.Found.Paths.Context
	if ctx == "" || path == ctx || strings.HasPrefix(path, ctx+"/") || strings.HasPrefix(path, ctx+"?") {
		return ""
	}
	return fmt.Sprintf("the app's paths are under %s (%s); --get is taken as written: did you mean --get %s%s?", ctx, in.Found.Paths.ContextKey, ctx, path)
}

// readyOnManagementPort: the readiness URL is the framework's, on a port
// of its own (the user's first --get stands on the app's port).
func (in Input) readyOnManagementPort() bool {
	path, _ := in.ReadyPath()
	return in.Found.Paths.ManagementPort && path == in.Found.Ready
}

// TakeFallback makes the URL that answered in place of the readiness URL
// (the check's Result.ReadyFallback) the readiness URL, and the first
// scenario's GET when it was the framework's endpoint.
func (in *Input) TakeFallback(answered string) {
	u, err := url.Parse(answered)
	if err != nil || u.Path == "" {
		return
	}
	r := *in.Found
	r.Ready = u.RequestURI()
	r.Sample = r.Ready
	if r.Paths.ManagementPort {
		r.Sample = "http://127.0.0.1:" + detect.ManagementPortVar + r.Ready
	}
	r.Paths.Alternatives = nil
	in.Found = &r
}

func readyGuessed(r *detect.Result) bool {
	for _, g := range r.Guessed {
		if strings.HasPrefix(g, "the readiness URL") {
			return true
		}
	}
	return false
}

var nonName = regexp.MustCompile(`[^A-Za-z0-9]+`)

// requestNames names each path's request after the path ("/api/items?x=1"
// → "api_items_x_1"), unique, in order.
func requestNames(paths []string) []string {
	seen := map[string]int{}
	names := make([]string, len(paths))
	for i, p := range paths {
		n := strings.Trim(nonName.ReplaceAllString(p, "_"), "_")
		if n == "" {
			n = "root"
		}
		if seen[n]++; seen[n] > 1 {
			n = fmt.Sprintf("%s_%d", n, seen[n])
		}
		names[i] = n
	}
	return names
}

// sortedKeys returns m's keys in order, for stable files.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
