package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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

// LoadScenario reads a scenario file. vars override the file's vars.
func LoadScenario(path string, vars map[string]string) (*Scenario, error) {
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

// ParseScenario parses a scenario from memory; body_file paths are relative
// to baseDir.
func ParseScenario(data []byte, baseDir string, vars map[string]string) (*Scenario, error) {
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

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "unmarshal errors:\n", "")
	f := strings.Fields(s)
	return strings.Join(f, " ")
}

// fieldError names the field that is wrong.
func fieldError(where, field string, err error) error {
	return fmt.Errorf("%s: %s: %s", where, field, errText(err))
}

func compile(raw *rawScenario, baseDir string, over map[string]string, where string) (*Scenario, error) {
	sc := &Scenario{Name: raw.Name, Vars: map[string]string{}}
	for k, v := range raw.Vars {
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
	ex := &expander{vars: userVars}

	if raw.Base != "" {
		b, err := ex.expand(raw.Base)
		if err != nil {
			return nil, fieldError(where, "base", err)
		}
		u, err := splitURL(b)
		if err != nil {
			return nil, fieldError(where, "base", err)
		}
		sc.Base = u.origin + strings.TrimSuffix(u.path, "/")
		if u.path == "/" {
			sc.Base = u.origin
		}
	}
	if v, ok := sc.Vars["files"]; ok {
		n, err := ex.integer(v, 0)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: vars.files: want a whole number > 0, got %q", where, v)
		}
		sc.Files = int(n)
	}
	var err error
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
	rawURL := strings.TrimSpace(rr.URL)
	if i := strings.Index(rawURL, "://"); i >= 0 {
		rest := rawURL[i+3:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			j = len(rest)
		}
		origin, err := ex.expand(rawURL[:i+3+j])
		if err != nil {
			return nil, fmt.Errorf("url: %s", errText(err))
		}
		u, err := splitURL(origin)
		if err != nil {
			return nil, fmt.Errorf("url: %s", errText(err))
		}
		r.abs, rawURL = u.origin, rest[j:]
		if rawURL == "" {
			rawURL = "/"
		}
	} else if !strings.HasPrefix(rawURL, "/") {
		rawURL = "/" + rawURL
	}
	t, err := ex.compile(rawURL)
	if err != nil {
		return nil, fmt.Errorf("url: %s", errText(err))
	}
	r.url = t
	hnames := make([]string, 0, len(rr.Headers))
	for k := range rr.Headers {
		hnames = append(hnames, k)
	}
	sort.Strings(hnames)
	for _, k := range hnames {
		if strings.ContainsAny(k, " :\r\n") || k == "" {
			return nil, fmt.Errorf("headers: %q is not a header name", k)
		}
		v, err := ex.compile(rr.Headers[k])
		if err != nil {
			return nil, fmt.Errorf("headers.%s: %s", k, errText(err))
		}
		r.headers = append(r.headers, header{name: k, value: v})
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

// expected says whether a status is a success for this request.
func (r *Request) expected(code int) bool {
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

func compilePhase(ex *expander, rp *rawPhase, i int, names []string, known map[string]bool) (*Phase, error) {
	if rp == nil {
		return nil, errors.New("empty phase")
	}
	p := &Phase{Name: rp.Name, Record: true, Model: strings.ToLower(strings.TrimSpace(rp.Model))}
	if p.Name == "" {
		p.Name = fmt.Sprintf("phase%d", i+1)
	}
	if rp.Record != nil {
		p.Record = *rp.Record
	}
	var err error
	num := func(field, s string) int64 {
		if err != nil {
			return 0
		}
		var n int64
		n, err = ex.integer(s, 0)
		if err != nil {
			err = fmt.Errorf("%s: %s", field, errText(err))
		} else if n < 0 {
			err = fmt.Errorf("%s: must not be negative, got %d", field, n)
		}
		return n
	}
	p.Workers = int(num("workers", rp.Workers))
	p.Iterations = num("iterations", rp.Iterations)
	p.Requests = num("requests", rp.Requests)
	p.MaxInflight = int(num("max_inflight", rp.MaxInflight))
	if err != nil {
		return nil, err
	}
	if p.Duration, err = duration(ex, rp.Duration, 0); err != nil {
		return nil, fmt.Errorf("duration: %s", errText(err))
	}
	if p.Timeout, err = duration(ex, rp.Timeout, 0); err != nil {
		return nil, fmt.Errorf("timeout: %s", errText(err))
	}
	if p.LateAfter, err = duration(ex, rp.LateAfter, 0); err != nil {
		return nil, fmt.Errorf("late_after: %s", errText(err))
	}
	if p.Rate, err = ex.number(rp.Rate, 0); err != nil {
		return nil, fmt.Errorf("rate: %s", errText(err))
	}
	if rp.Ramp != nil {
		if p.RampFrom, err = ex.number(rp.Ramp.From, 0); err != nil {
			return nil, fmt.Errorf("ramp.from: %s", errText(err))
		}
		if p.RampTo, err = ex.number(rp.Ramp.To, 0); err != nil {
			return nil, fmt.Errorf("ramp.to: %s", errText(err))
		}
	}
	if p.Model == "" {
		p.Model = Closed
		if rp.Rate != "" || rp.Ramp != nil {
			p.Model = Open
		}
	}
	if p.Workers == 0 {
		p.Workers = 1
	}
	switch strings.TrimSpace(rp.FileOffset) {
	case "", "spread":
		p.FileOffset = "spread"
	case "zero":
		p.FileOffset = "zero"
	default:
		return nil, fmt.Errorf("file_offset: %q: use spread or zero", rp.FileOffset)
	}
	if err := compileSteps(ex, p, rp, names, known); err != nil {
		return nil, err
	}
	if rp.Every != nil {
		e := &Every{Request: rp.Every.Request, Fraction: 0}
		if e.Iterations, err = ex.integer(rp.Every.Iterations, 0); err != nil || e.Iterations <= 0 {
			return nil, fmt.Errorf("every.iterations: want a whole number > 0, got %q", rp.Every.Iterations)
		}
		if !known[e.Request] {
			return nil, fmt.Errorf("every.request: %q is not a defined request", e.Request)
		}
		if e.Fraction, err = ex.number(rp.Every.Fraction, 0); err != nil || e.Fraction < 0 || e.Fraction > 1 {
			return nil, fmt.Errorf("every.fraction: want a number from 0 to 1, got %q", rp.Every.Fraction)
		}
		p.Every = e
	}
	return p, p.validate()
}

func compileSteps(ex *expander, p *Phase, rp *rawPhase, names []string, known map[string]bool) error {
	if len(rp.Sequence) > 0 && len(rp.Mix) > 0 {
		return errors.New("give sequence: or mix:, not both")
	}
	for j, st := range rp.Sequence {
		if !known[st.Request] {
			return fmt.Errorf("sequence[%d]: %q is not a defined request (defined: %s)", j, st.Request, strings.Join(names, ", "))
		}
		n, err := ex.integer(st.Repeat, 1)
		if err != nil || n < 1 || n > 1_000_000 {
			return fmt.Errorf("sequence[%d].repeat: want a whole number ≥ 1, got %q", j, st.Repeat)
		}
		for k := int64(0); k < n; k++ {
			p.Steps = append(p.Steps, st.Request)
		}
	}
	if len(rp.Mix) > 0 {
		p.Mix = map[string]float64{}
		for name, w := range rp.Mix {
			if !known[name] {
				return fmt.Errorf("mix.%s: not a defined request (defined: %s)", name, strings.Join(names, ", "))
			}
			f, err := ex.number(w, 0)
			if err != nil || f < 0 {
				return fmt.Errorf("mix.%s: want a weight ≥ 0, got %q", name, w)
			}
			p.Mix[name] = f
		}
	}
	if len(p.Steps) == 0 && len(p.Mix) == 0 {
		if len(names) != 1 {
			return fmt.Errorf("sequence: missing; with several requests (%s) say which to send", strings.Join(names, ", "))
		}
		p.Steps = []string{names[0]}
	}
	return nil
}

// validate checks the limits once options have been applied.
func (p *Phase) validate() error {
	switch p.Model {
	case Open:
		if p.RampTo > 0 || p.RampFrom > 0 {
			if p.RampFrom < 0 || p.RampTo <= 0 {
				return fmt.Errorf("ramp: from must be ≥ 0 and to > 0 (got %g → %g)", p.RampFrom, p.RampTo)
			}
			if p.Duration <= 0 {
				return errors.New("ramp: needs duration:")
			}
		} else if p.Rate <= 0 {
			return fmt.Errorf("rate: must be > 0 req/s for an open phase (got %g)", p.Rate)
		}
		if p.Duration <= 0 && p.Requests <= 0 {
			return errors.New("open phase needs duration: or requests:")
		}
	case Closed:
		if p.Duration <= 0 && p.Requests <= 0 && p.Iterations <= 0 {
			return errors.New("closed phase needs duration:, iterations: or requests:")
		}
	default:
		return fmt.Errorf("model: %q: use open or closed", p.Model)
	}
	if p.Workers < 1 {
		return fmt.Errorf("workers: must be ≥ 1 (got %d)", p.Workers)
	}
	if p.Workers > 100000 {
		return fmt.Errorf("workers: %d is too many (max 100000)", p.Workers)
	}
	return nil
}

// origin and path of a URL.
type splitURLParts struct {
	origin string // scheme://host:port
	path   string // path?query, at least "/"
	host   string // host:port
}

func splitURL(s string) (*splitURLParts, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL", s)
	}
	if u.Scheme != "http" {
		if u.Scheme == "https" {
			return nil, fmt.Errorf("%q: https is not supported; the load generator talks plain HTTP/1.1 to local services", s)
		}
		return nil, fmt.Errorf("%q is not an http:// URL", s)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%q has no host", s)
	}
	host := u.Host
	if u.Port() == "" {
		host += ":80"
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	// Keep ${...} readable: url.Parse escapes braces in paths.
	p = strings.NewReplacer("%7B", "{", "%7D", "}", "%24", "$").Replace(p)
	return &splitURLParts{origin: "http://" + host, path: p, host: host}, nil
}

// errText is an error as one line.
func errText(err error) string {
	return oneLine(err.Error())
}
