// Package anchor computes the JVM options that the tools users pick instead
// of jvmfit would give for a limit: the JDK's own ergonomics, fabric8's
// run-java.sh, the Paketo/Cloud Foundry memory calculator and Red Hat's UBI
// OpenJDK images. Each style follows its project's documented formula or
// script behaviour (docs/anchors.md cites the source), so that jvmfit can be
// measured against them side by side.
package anchor

import (
	"fmt"
	"sort"
	"strings"
)

// Input is what a style may look at: the container's limits, the JDK, the
// app's jar (Paketo counts its classes) and what the user gave the tool.
type Input struct {
	LimitBytes int64   // the container's memory limit; 0 = none
	CPUs       float64 // the container's CPU quota; 0 = none
	JDK        int     // feature version: 8, 11, 17, 21, 25
	JavaHome   string  // the runtime's home: Paketo counts its lib/modules
	Jar        string  // the app's jar: Paketo counts its classes
	// UserOptions are the user's own JVM options (the descriptor's
	// jvm_options), placed and honoured the way the tool does with its
	// own variable (JAVA_OPTIONS, JAVA_TOOL_OPTIONS, JAVA_OPTS_APPEND).
	UserOptions []string
	// Env looks up the tool's own variables (JAVA_MAX_MEM_RATIO,
	// BPL_JVM_THREAD_COUNT...); nil = none set, the tool's defaults.
	Env func(string) (string, bool)
}

func (in Input) env(key string) (string, bool) {
	if in.Env == nil {
		return "", false
	}
	return in.Env(key)
}

// Options is what a style gives the JVM.
type Options struct {
	Style      string            `json:"style"`
	LimitBytes int64             `json:"limit_bytes"`
	CPUs       float64           `json:"cpus"`
	JDK        int               `json:"jdk"`
	Args       []string          `json:"options"` // in the order the tool puts them on the java line
	Env        map[string]string `json:"env,omitempty"`
	Why        []Reason          `json:"reasons"`
	Regions    []Region          `json:"regions,omitempty"` // the sizes a calculator added up
	Warnings   []string          `json:"warnings,omitempty"`
}

// Reason says why the tool gives one option.
type Reason struct {
	Option string `json:"option"`
	Why    string `json:"why"`
}

// Region is one memory region a calculator sized.
type Region struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	Why   string `json:"why"`
}

func (o *Options) add(option, why string) {
	o.Args = append(o.Args, option)
	o.Why = append(o.Why, Reason{option, why})
}

// Style computes a tool's options for in.
type Style func(in Input) (Options, error)

var styles = map[string]Style{
	"jdk":     JDK,
	"runjava": RunJava,
	"paketo":  Paketo,
	"ubi":     UBI,
}

// Names are the anchor styles, sorted.
func Names() []string {
	n := make([]string, 0, len(styles))
	for k := range styles {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Compute runs the named style. An unknown name is a one-line error.
func Compute(name string, in Input) (Options, error) {
	s, ok := styles[name]
	if !ok {
		return Options{}, fmt.Errorf("unknown style %q: use %s", name, strings.Join(Names(), ", "))
	}
	o, err := s(in)
	if err != nil {
		return Options{}, err
	}
	o.Style, o.LimitBytes, o.CPUs, o.JDK = name, in.LimitBytes, in.CPUs, in.JDK
	return o, nil
}

// IsStyle reports whether name is an anchor style.
func IsStyle(name string) bool { _, ok := styles[name]; return ok }

// JDK is the JDK's own ergonomics: no options but the user's.
func JDK(in Input) (Options, error) {
	var o Options
	o.Args = append(o.Args, in.UserOptions...)
	return o, nil
}

// hasOption reports whether any of opts starts with one of the prefixes.
func hasOption(opts []string, prefixes ...string) bool {
	for _, o := range opts {
		for _, p := range prefixes {
			if strings.HasPrefix(o, p) {
				return true
			}
		}
	}
	return false
}
