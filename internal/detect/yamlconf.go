package detect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReadYAML flattens a YAML configuration file into the dotted keys a
// .properties file would have ("server.servlet.context-path"; a list's
// items as "key[0]"). Every document of the file counts, in order, except
// a Spring Boot document that activates only on a profile other than
// "default" (spring.config.activate.on-profile, or the older
// spring.profiles): the app, run as jvmfit runs it, has no other profile.
func ReadYAML(r io.Reader) (map[string]string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxConfig))
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return m, nil
		}
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
		}
		one := map[string]string{}
		if err := flatten(&doc, "", one); err != nil {
			return nil, err
		}
		if !activeDocument(one) {
			continue
		}
		for k, v := range one {
			m[k] = v
		}
	}
}

// activeDocument: a document with no profile condition, or "default".
func activeDocument(doc map[string]string) bool {
	for _, k := range []string{"spring.config.activate.on-profile", "spring.profiles"} {
		if p, ok := doc[k]; ok {
			for _, name := range strings.Split(p, ",") {
				if strings.TrimSpace(name) == "default" {
					return true
				}
			}
			return false
		}
	}
	return true
}

func flatten(n *yaml.Node, prefix string, out map[string]string) error {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := flatten(c, prefix, out); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a key that is not a plain value", k.Line)
			}
			key := k.Value
			if prefix != "" {
				key = prefix + "." + key
			}
			if err := flatten(n.Content[i+1], key, out); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := flatten(c, prefix+"["+strconv.Itoa(i)+"]", out); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if prefix != "" {
			out[prefix] = n.Value
		}
	case yaml.AliasNode:
		return flatten(n.Alias, prefix, out)
	}
	return nil
}
