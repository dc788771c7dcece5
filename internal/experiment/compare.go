package experiment

import (
	_ "embed"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/jvmfit/jvmfit/internal/trial"
)

//go:embed seed001.yaml
var seed001 []byte

// BuiltinSets are the option-set files shipped inside jvmfit.
var BuiltinSets = map[string][]byte{"seed001": seed001}

// LoadSets returns an option-sets file's bytes and its set names in file
// order (the columns of the comparison): a built-in name or a path.
func LoadSets(ref string) (data []byte, names []string, err error) {
	data, ok := BuiltinSets[ref]
	if !ok {
		if data, err = os.ReadFile(ref); err != nil {
			return nil, nil, fmt.Errorf("--sets %s: not a built-in set (seed001) nor a readable file: %v", ref, err)
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("--sets %s: not YAML: %v", ref, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("--sets %s: expected a map of name: [options...]", ref)
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		names = append(names, m.Content[i].Value)
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("--sets %s: no option sets in it", ref)
	}
	return data, names, nil
}

// Compare is the sweep over the option sets (as set:NAME modes), limits
// and CPU counts that compare runs; its cells go through a Session like
// any other.
func Compare(names []string, memory []int64, cpus []float64, base trial.Spec) Sweep {
	jvms := make([]string, len(names))
	for i, n := range names {
		jvms[i] = "set:" + n
	}
	return Sweep{Cells: Axes{JVMs: jvms, Memory: memory, CPUs: cpus}.Cells(base)}
}
