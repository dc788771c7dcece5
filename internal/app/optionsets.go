package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// OptionSet is one named set: JVM options, and the environment variables
// it runs with (MALLOC_ARENA_MAX and the like, which no option can set).
type OptionSet struct {
	Options []string
	Env     map[string]string
}

// OptionSets maps a name (pardef, serdef, ...) to its set.
type OptionSets map[string]OptionSet

// UnmarshalYAML reads a set either as a list of options or as a map with
// options and env:
//
//	serdef: ["-XX:+UseSerialGC", "-Xmx256M"]
//	B: {options: ["-Xmx64m"], env: {MALLOC_ARENA_MAX: "2"}}
func (s *OptionSet) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		return n.Decode(&s.Options)
	}
	var full struct {
		Options []string          `yaml:"options"`
		Env     map[string]string `yaml:"env"`
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a set is a list of options or a map with options and env", n.Line)
	}
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k != "options" && k != "env" {
			return fmt.Errorf("line %d: %q is not a set field (options, env)", n.Content[i].Line, k)
		}
	}
	if err := n.Decode(&full); err != nil {
		return err
	}
	s.Options, s.Env = full.Options, full.Env
	return nil
}

// LoadOptionSets reads a YAML map of name -> set.
func LoadOptionSets(path string) (OptionSets, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read option sets: %w", err)
	}
	var sets OptionSets
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&sets); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: expected name: [options...]", path)
		}
		return nil, fmt.Errorf("%s: expected name: [options...] or name: {options: [...], env: {...}}: %s", path, yamlMessage(err))
	}
	for name, set := range sets {
		for _, o := range set.Options {
			if !strings.HasPrefix(o, "-") {
				return nil, fmt.Errorf("%s: set %s: %q is not a JVM option (options start with -)", path, name, o)
			}
		}
		for k := range set.Env {
			if k == "" || strings.ContainsAny(k, "= ") {
				return nil, fmt.Errorf("%s: set %s: env: %q is not a variable name", path, name, k)
			}
		}
	}
	return sets, nil
}

// Get returns a set by name, or an error listing the names there are.
func (s OptionSets) Get(name, file string) (OptionSet, error) {
	if set, ok := s[name]; ok {
		return set, nil
	}
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return OptionSet{}, fmt.Errorf("no option set %q in %s (there are: %s)", name, file, strings.Join(names, ", "))
}
