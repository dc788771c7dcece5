package scenario

import (
	"fmt"
	"strings"
)

// ParseVars reads --var name=value flags (repeatable) into the variables a
// scenario is expanded with: the one parser of --var for run, load and the
// experiments. A name is trimmed and may not be blank; the value is kept
// as given. No flags give nil (a trial's key depends on it).
func ParseVars(kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	vars := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, fmt.Errorf("--var %q: write name=value", kv)
		}
		vars[k] = v
	}
	return vars, nil
}
