package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// The raw shapes mirror docs/scenario.md. Numbers are strings so that they
// may hold ${variables}.
type rawScenario struct {
	Name     string                 `yaml:"name"`
	Base     string                 `yaml:"base"`
	Vars     map[string]string      `yaml:"vars"`
	Timeout  string                 `yaml:"timeout"`
	Requests map[string]*rawRequest `yaml:"requests"`
	Phases   []*rawPhase            `yaml:"phases"`
}

type rawRequest struct {
	Method    string            `yaml:"method"`
	URL       string            `yaml:"url"`
	Headers   map[string]string `yaml:"headers"`
	Body      *string           `yaml:"body"`
	BodyFile  string            `yaml:"body_file"`
	BodySize  string            `yaml:"body_size"`
	JSON      any               `yaml:"json"`
	Multipart *rawMultipart     `yaml:"multipart"`
	Expect    []string          `yaml:"expect"`
}

type rawMultipart struct {
	Field       string  `yaml:"field"`
	Filename    string  `yaml:"filename"`
	Size        string  `yaml:"size"`
	Content     *string `yaml:"content"`
	ContentType string  `yaml:"content_type"`
}

type rawPhase struct {
	Name        string            `yaml:"name"`
	Record      *bool             `yaml:"record"`
	Model       string            `yaml:"model"`
	Workers     string            `yaml:"workers"`
	Iterations  string            `yaml:"iterations"`
	Requests    string            `yaml:"requests"`
	Duration    string            `yaml:"duration"`
	Rate        string            `yaml:"rate"`
	Ramp        *rawRamp          `yaml:"ramp"`
	Sequence    []rawStep         `yaml:"sequence"`
	Mix         map[string]string `yaml:"mix"`
	FileOffset  string            `yaml:"file_offset"`
	Every       *rawEvery         `yaml:"every"`
	MaxInflight string            `yaml:"max_inflight"`
	Timeout     string            `yaml:"timeout"`
	LateAfter   string            `yaml:"late_after"`
}

type rawRamp struct {
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

type rawEvery struct {
	Iterations string `yaml:"iterations"`
	Request    string `yaml:"request"`
	Fraction   string `yaml:"fraction"`
}

// rawStep is "name" or {request: name, repeat: n}.
type rawStep struct {
	Request string `yaml:"request"`
	Repeat  string `yaml:"repeat"`
}

func (s *rawStep) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s.Request = n.Value
		return nil
	}
	type plain rawStep
	return n.Decode((*plain)(s))
}

// Load reads a scenario file. vars override the file's vars.
func Load(path string, vars map[string]string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: cannot read: %s", path, errText(err))
	}
	sc, err := parse(data, filepath.Dir(path), vars, "scenario "+path)
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// Parse parses a scenario from memory; body_file paths are relative
// to baseDir.
func Parse(data []byte, baseDir string, vars map[string]string) (*Scenario, error) {
	return parse(data, baseDir, vars, "scenario")
}

func parse(data []byte, baseDir string, vars map[string]string, where string) (*Scenario, error) {
	raw := &rawScenario{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: expected requests: and phases: (see docs/scenario.md)", where)
		}
		return nil, fmt.Errorf("%s: bad YAML: %s", where, oneLine(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	return compile(raw, baseDir, vars, where)
}

// YAML errors name Go types; users wrote YAML, so say it in YAML's terms.
var (
	yamlField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` in type \*?scenario\.raw\w+`) })
	yamlList  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` into \[\]\S+`) })
	yamlMap   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` into (\*?scenario\.raw\w+|map\[\S+)`) })
	yamlKinds = strings.NewReplacer("!!seq", "a list", "!!map", "a mapping", "!!str", "a string",
		"!!int", "a number", "!!float", "a number", "!!bool", "a boolean", "cannot unmarshal", "found")
)

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "unmarshal errors:\n", "")
	s = yamlField().ReplaceAllString(s, "")
	s = yamlList().ReplaceAllString(s, " where a list is expected")
	s = yamlMap().ReplaceAllString(s, " where a mapping is expected")
	s = yamlKinds.Replace(s)
	f := strings.Fields(s)
	return strings.Join(f, " ")
}

// fieldError names the field that is wrong.
func fieldError(where, field string, err error) error {
	return fmt.Errorf("%s: %s: %s", where, field, errText(err))
}

func compile(raw *rawScenario, baseDir string, over map[string]string, where string) (*Scenario, error) {
	sc := &Scenario{Name: raw.Name}
	ex, err := scenarioVars(sc, raw.Vars, over, where)
	if err != nil {
		return nil, err
	}
	if raw.Base != "" {
		if sc.Base, err = compileBase(ex, raw.Base); err != nil {
			return nil, fieldError(where, "base", err)
		}
	}
	if v, ok := sc.Vars["files"]; ok {
		n, err := ex.integer(v, 0)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: vars.files: want a whole number > 0, got %q", where, v)
		}
		sc.Files = int(n)
	}
	if sc.Timeout, err = duration(ex, raw.Timeout, DefaultTimeout); err != nil {
		return nil, fieldError(where, "timeout", err)
	}
	if len(raw.Requests) == 0 {
		return nil, fmt.Errorf("%s: requests: none defined (give at least one named request)", where)
	}
	names := make([]string, 0, len(raw.Requests))
	for name := range raw.Requests {
		names = append(names, name)
	}
	sort.Strings(names)
	byName := map[string]bool{}
	for _, name := range names {
		r, err := compileRequest(ex, name, raw.Requests[name], baseDir)
		if err != nil {
			return nil, fieldError(where, "requests."+name, err)
		}
		if (r.usesFile()) && sc.Files == 0 {
			return nil, fmt.Errorf("%s: requests.%s: uses ${file} or ${version} but vars.files is not set", where, name)
		}
		sc.Requests = append(sc.Requests, r)
		byName[name] = true
	}
	if len(raw.Phases) == 0 {
		return nil, fmt.Errorf("%s: phases: none defined (give at least one phase)", where)
	}
	for i, rp := range raw.Phases {
		p, err := compilePhase(ex, rp, i, names, byName)
		if err != nil {
			return nil, fieldError(where, fmt.Sprintf("phases[%d]", i), err)
		}
		sc.Phases = append(sc.Phases, p)
	}
	return sc, nil
}

// scenarioVars sets sc.Vars, the file's vars overridden by over, and
// returns the expander of the user's variables.
func scenarioVars(sc *Scenario, vars, over map[string]string, where string) (*expander, error) {
	sc.Vars = map[string]string{}
	for k, v := range vars {
		sc.Vars[k] = v
	}
	for k, v := range over {
		sc.Vars[k] = v
	}
	for k := range sc.Vars {
		if _, ok := builtins[k]; ok && k != "port" {
			return nil, fmt.Errorf("%s: vars.%s: %q is a built-in variable and cannot be set", where, k, k)
		}
	}
	// port is per-target unless the user pins it.
	userVars := map[string]string{}
	for k, v := range sc.Vars {
		if k != "port" {
			userVars[k] = v
		}
	}
	return &expander{vars: userVars}, nil
}

// compileBase is the base URL without a trailing slash.
func compileBase(ex *expander, raw string) (string, error) {
	b, err := ex.expand(raw)
	if err != nil {
		return "", err
	}
	u, err := ParseURL(b)
	if err != nil {
		return "", err
	}
	if u.Path == "/" {
		return u.Origin, nil
	}
	return u.Origin + strings.TrimSuffix(u.Path, "/"), nil
}

func duration(ex *expander, s string, def time.Duration) (time.Duration, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	v, err := ex.expand(s)
	if err != nil {
		return 0, err
	}
	v = strings.TrimSpace(v)
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (e.g. 30s, 2m, 500ms)", v)
	}
	return d, nil
}

func compileRequest(ex *expander, name string, rr *rawRequest, baseDir string) (*Request, error) {
	if rr == nil {
		return nil, errors.New("empty request: give at least url:")
	}
	r := &Request{Name: name, Method: strings.ToUpper(strings.TrimSpace(rr.Method))}
	if r.Method == "" {
		r.Method = "GET"
	}
	for _, c := range r.Method {
		if c < 'A' || c > 'Z' {
			return nil, fmt.Errorf("method: %q is not an HTTP method", rr.Method)
		}
	}
	if strings.TrimSpace(rr.URL) == "" {
		return nil, errors.New("url: missing (e.g. url: /status)")
	}
	if err := compileURL(ex, r, strings.TrimSpace(rr.URL)); err != nil {
		return nil, fmt.Errorf("url: %s", errText(err))
	}
	var err error
	if r.headers, err = compileHeaders(ex, rr.Headers); err != nil {
		return nil, err
	}
	if r.body, err = compileBody(ex, rr, baseDir); err != nil {
		return nil, err
	}
	for _, e := range rr.Expect {
		code, err := ex.integer(e, 0)
		if err != nil || code < 100 || code > 599 {
			return nil, fmt.Errorf("expect: %q is not an HTTP status code", e)
		}
		r.Expect = append(r.Expect, int(code))
	}
	return r, nil
}

// compileHeaders returns the headers sorted by name, so that the request
// bytes are the same on every run.
func compileHeaders(ex *expander, raw map[string]string) ([]header, error) {
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	var hs []header
	for _, k := range names {
		if strings.ContainsAny(k, " :\r\n") || k == "" {
			return nil, fmt.Errorf("headers: %q is not a header name", k)
		}
		v, err := ex.compile(raw[k])
		if err != nil {
			return nil, fmt.Errorf("headers.%s: %s", k, errText(err))
		}
		hs = append(hs, header{name: k, value: v})
	}
	return hs, nil
}

// compileURL sets r's URL template, and its origin if the URL is absolute
// (its scheme://host:port may use the user's variables, not per-request
// ones).
func compileURL(ex *expander, r *Request, rawURL string) error {
	if i := strings.Index(rawURL, "://"); i >= 0 {
		rest := rawURL[i+3:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			j = len(rest)
		}
		origin, err := ex.expand(rawURL[:i+3+j])
		if err != nil {
			return err
		}
		u, err := ParseURL(origin)
		if err != nil {
			return err
		}
		r.abs, rawURL = u.Origin, rest[j:]
		if rawURL == "" {
			rawURL = "/"
		}
	} else if !strings.HasPrefix(rawURL, "/") {
		rawURL = "/" + rawURL
	}
	t, err := ex.compile(rawURL)
	r.url = t
	return err
}

func (r *Request) usesFile() bool {
	ts := []*template{r.url}
	for _, h := range r.headers {
		ts = append(ts, h.value)
	}
	ts = append(ts, r.body.templates()...)
	for _, t := range ts {
		if t != nil && (t.uses(bFile) || t.uses(bVersion)) {
			return true
		}
	}
	return false
}

// Expected says whether a status is a success for this request.
func (r *Request) Expected(code int) bool {
	if len(r.Expect) == 0 {
		return code >= 200 && code < 300
	}
	for _, c := range r.Expect {
		if c == code {
			return true
		}
	}
	return false
}

// errText is an error as one line.
func errText(err error) string {
	return oneLine(err.Error())
}
