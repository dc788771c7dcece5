package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// raw mirrors the YAML. Scalars that users write either as numbers or as
// strings ("90s", 0.5) are yaml.Node so the error can name the field.
type raw struct {
	Name         string            `yaml:"name"`
	Jar          string            `yaml:"jar"`
	Java         string            `yaml:"java"`
	MainClass    string            `yaml:"main_class"`
	Classpath    string            `yaml:"classpath"`
	Command      []string          `yaml:"command"`
	Args         []string          `yaml:"args"`
	Env          map[string]string `yaml:"env"`
	Port         *scalar           `yaml:"port"`
	Ready        string            `yaml:"ready"`
	ReadyTimeout *scalar           `yaml:"ready_timeout"`
	Scenario     string            `yaml:"scenario"`
	Vars         map[string]string `yaml:"vars"`
	SLO          string            `yaml:"slo"`
	Rate         *scalar           `yaml:"rate"`
	JVMOptions   []string          `yaml:"jvm_options"`
	OptionSets   string            `yaml:"option_sets"`
	Services     []rawService      `yaml:"services"`
	// A container image as the app (docs/docker.md).
	Image         string   `yaml:"image"`
	User          string   `yaml:"user"`
	Tmpfs         []string `yaml:"tmpfs"`
	Volumes       []string `yaml:"volumes"`
	ContainerPort *scalar  `yaml:"container_port"`
	PidsLimit     *scalar  `yaml:"pids_limit"`
	Placement     string   `yaml:"placement"`
}

type rawService struct {
	Name   string  `yaml:"name"`
	Kind   string  `yaml:"kind"`
	Memory *scalar `yaml:"memory"`
	CPUs   *scalar `yaml:"cpus"`
	// kind http
	ResponseSize *scalar `yaml:"response_size"`
	Latency      string  `yaml:"latency"`
	// kind command
	Command      []string          `yaml:"command"`
	Env          map[string]string `yaml:"env"`
	Ready        string            `yaml:"ready"`
	ReadyTimeout *scalar           `yaml:"ready_timeout"`
}

// Load reads and validates a descriptor. Every error is one line naming the
// file and the field.
func Load(path string) (*App, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read app descriptor: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return Parse(abs, data)
}

// Parse validates descriptor bytes; path gives the base directory and the
// name used in errors.
func Parse(path string, data []byte) (*App, error) {
	var r raw
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&r); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: see docs/app.md for the descriptor format", path)
		}
		if notAMap(err) {
			return nil, fmt.Errorf("%s: not an app descriptor: expected a YAML map of fields (name, jar or command, ready...; see docs/app.md)", path)
		}
		return nil, fmt.Errorf("%s: %s", path, yamlMessage(err))
	}
	dir := filepath.Dir(path)
	a := &App{
		Name: r.Name, File: path, Dir: dir,
		MainClass: r.MainClass, Command: r.Command, Args: r.Args,
		Env: r.Env, Ready: r.Ready, Vars: r.Vars, SLO: r.SLO, JVMOptions: r.JVMOptions,
		ReadyTimeout: DefaultReadyTimeout,
	}
	if a.Name == "" {
		a.Name = strings.TrimSuffix(filepath.Base(dir), string(filepath.Separator))
	}
	for _, step := range []func(*App, *raw) error{parseStart, parseImage, parseReady, parseLoad, parseOptions, parseServices, parsePidsLimit} {
		if err := step(a, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := a.checkPlaceholders(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// fieldError is one line naming the field: "jar: missing: ...".
func fieldError(field, format string, args ...any) error {
	return fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...))
}

// parseStart reads how the app is started: jar, main_class or command, and
// the JDK it names.
func parseStart(a *App, r *raw) error {
	starts := 0
	for _, set := range []bool{r.Jar != "", r.MainClass != "", len(r.Command) > 0, r.Image != ""} {
		if set {
			starts++
		}
	}
	switch {
	case starts == 0:
		return fieldError("jar", "missing: give jar, main_class (with classpath), command or image")
	case starts > 1:
		return fieldError("jar", "give only one of jar, main_class, command or image")
	case r.MainClass != "" && r.Classpath == "":
		return fieldError("classpath", "missing: main_class needs a classpath")
	}
	if r.Jar != "" {
		a.Jar = resolve(a.Dir, r.Jar)
	}
	if r.Java != "" {
		j, err := javaBinary(resolve(a.Dir, r.Java))
		if err != nil {
			return fieldError("java", "%v", err)
		}
		a.Java = j
	}
	if r.Classpath != "" {
		parts := strings.Split(r.Classpath, string(os.PathListSeparator))
		for i, p := range parts {
			parts[i] = resolve(a.Dir, p)
		}
		a.Classpath = strings.Join(parts, string(os.PathListSeparator))
	}
	return nil
}

// parseReady reads the port and the readiness URL and timeout.
func parseReady(a *App, r *raw) error {
	if r.Port != nil {
		p, err := strconv.Atoi(r.Port.Value)
		if err != nil || p < 0 || p > 65535 {
			return fieldError("port", "%q is not a port number (0..65535; 0 picks a free one)", r.Port.Value)
		}
		a.Port = p
	}
	if a.Ready == "" {
		return fieldError("ready", "missing: give the URL whose first 2xx answer means started, e.g. http://127.0.0.1:${port}/health")
	}
	if !strings.HasPrefix(a.Ready, "http://") && !strings.HasPrefix(a.Ready, "https://") {
		return fieldError("ready", "%q is not an http:// URL", a.Ready)
	}
	if r.ReadyTimeout != nil {
		d, err := time.ParseDuration(r.ReadyTimeout.Value)
		if err != nil || d <= 0 {
			return fieldError("ready_timeout", "%q is not a positive duration (e.g. 90s)", r.ReadyTimeout.Value)
		}
		a.ReadyTimeout = d
	}
	return nil
}

// parseLoad reads the scenario and the default rate.
func parseLoad(a *App, r *raw) error {
	if r.Scenario != "" {
		a.Scenario = resolve(a.Dir, r.Scenario)
		if _, err := os.Stat(a.Scenario); err != nil {
			return fieldError("scenario", "file %s does not exist", a.Scenario)
		}
	}
	if r.Rate != nil {
		v, ok := positiveNumber(r.Rate.Value)
		if !ok {
			return fieldError("rate", "%q is not a positive number of requests per second", r.Rate.Value)
		}
		a.Rate = v
	}
	return nil
}

// parseOptions reads the option-sets file and the JVM options.
func parseOptions(a *App, r *raw) error {
	if r.OptionSets != "" {
		a.OptionSets = resolve(a.Dir, r.OptionSets)
		if _, err := LoadOptionSets(a.OptionSets); err != nil {
			return fieldError("option_sets", "%v", err)
		}
	}
	for i, o := range a.JVMOptions {
		if !strings.HasPrefix(o, "-") {
			return fieldError(fmt.Sprintf("jvm_options[%d]", i), "%q is not a JVM option (options start with -)", o)
		}
	}
	return nil
}

// notAMap tells a file that is not a map at all (a passwd file, a list)
// from a descriptor with a bad field: yaml.v3 then names our Go type.
func notAMap(err error) bool {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) != 1 {
		return false
	}
	return strings.HasPrefix(te.Errors[0], "line 1: cannot unmarshal") && strings.HasSuffix(te.Errors[0], "into app.raw")
}

// yamlMessage strips yaml.v3's "yaml: " prefix and folds multi-error
// reports into one line.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	msg = strings.ReplaceAll(msg, "\n  ", "; ")
	msg = strings.ReplaceAll(msg, "not found in type app.raw", "is not a descriptor field (see docs/app.md)")
	msg = strings.ReplaceAll(msg, "not found in type app.rawService", "is not a service field (see docs/app.md)")
	return msg
}

// javaBinary accepts a java launcher or a JDK home (with bin/java).
func javaBinary(p string) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%s does not exist: give a java binary or a JDK home", p)
	}
	if st.IsDir() {
		j := filepath.Join(p, "bin", "java")
		if _, err := os.Stat(j); err != nil {
			return "", fmt.Errorf("%s is a directory without bin/java: give a java binary or a JDK home", p)
		}
		return j, nil
	}
	return p, nil
}

func resolve(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "${") {
		return p
	}
	return filepath.Join(dir, p)
}

var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^}]*)\}`) })

// checkPlaceholders refuses unknown ${...} names now, not mid-trial.
// Service exports (${db_port}) are known once services are declared.
func (a *App) checkPlaceholders() error {
	known := map[string]bool{"java": true, "jvm_options": true, "port": true}
	for _, s := range a.Services {
		for _, v := range s.ExportNames() {
			known[s.Name+"_"+v] = true
		}
	}
	check := func(field, s string) error {
		for _, m := range placeholder().FindAllStringSubmatch(s, -1) {
			if !known[m[1]] {
				return fmt.Errorf("%s: unknown variable ${%s} in %q (known: ${java}, ${jvm_options}, ${port} and service exports)", field, m[1], s)
			}
		}
		return nil
	}
	for i, c := range a.Command {
		if err := check(fmt.Sprintf("command[%d]", i), c); err != nil {
			return err
		}
	}
	for i, c := range a.Args {
		if err := check(fmt.Sprintf("args[%d]", i), c); err != nil {
			return err
		}
	}
	for i, o := range a.JVMOptions {
		if err := check(fmt.Sprintf("jvm_options[%d]", i), o); err != nil {
			return err
		}
	}
	for k, v := range a.Env {
		if err := check("env."+k, v); err != nil {
			return err
		}
	}
	return check("ready", a.Ready)
}

// scalar keeps a number-or-string field as written, so validation can quote
// it back in the error.
type scalar struct{ Value string }

func (s *scalar) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: expected a single value", n.Line)
	}
	s.Value = n.Value
	return nil
}
