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

// OptionSets maps a name (pardef, serdef, ...) to JVM options.
type OptionSets map[string][]string

// LoadOptionSets reads a YAML map of name -> list of options.
func LoadOptionSets(path string) (OptionSets, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read option sets: %v", err)
	}
	var sets OptionSets
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&sets); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: expected name: [options...]", path)
		}
		return nil, fmt.Errorf("%s: expected name: [options...]: %s", path, yamlMessage(err))
	}
	for name, opts := range sets {
		for _, o := range opts {
			if !strings.HasPrefix(o, "-") {
				return nil, fmt.Errorf("%s: set %s: %q is not a JVM option (options start with -)", path, name, o)
			}
		}
	}
	return sets, nil
}

// Get returns a set by name, or an error listing the names there are.
func (s OptionSets) Get(name, file string) ([]string, error) {
	if opts, ok := s[name]; ok {
		return opts, nil
	}
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("no option set %q in %s (there are: %s)", name, file, strings.Join(names, ", "))
}
