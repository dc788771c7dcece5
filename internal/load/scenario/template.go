package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// Built-in variables are known only per request, so templates keep them as
// slots and resolve them at send time; everything else is substituted when
// the scenario is loaded, so that an unknown name fails early, never mid-run.
type builtin int

const (
	bWorker builtin = iota + 1
	bIter
	bFile
	bVersion
	bPort
)

var builtins = map[string]builtin{
	"worker": bWorker, "iter": bIter, "file": bFile, "version": bVersion, "port": bPort,
}

type segment struct {
	lit string
	v   builtin // 0 = literal
}

// template is a string with built-in variable slots.
type template struct {
	segs []segment
}

// String is the template as written, built-in slots shown as ${name}.
func (t *template) String() string {
	var b strings.Builder
	for _, s := range t.segs {
		if s.v == 0 {
			b.WriteString(s.lit)
			continue
		}
		for name, v := range builtins {
			if v == s.v {
				b.WriteString("${" + name + "}")
			}
		}
	}
	return b.String()
}

// static says whether the template needs per-request values at all: most do
// not, and their bytes are then built once.
func (t *template) static() bool {
	for _, s := range t.segs {
		if s.v != 0 {
			return false
		}
	}
	return true
}

func (t *template) uses(b builtin) bool {
	for _, s := range t.segs {
		if s.v == b {
			return true
		}
	}
	return false
}

// Vars carries the built-in values of one request: ${worker}, ${iter},
// ${file}, ${version} and ${port}.
type Vars struct {
	Worker, Iter, File, Version, Port int
}

func (t *template) append(dst []byte, c *Vars) []byte {
	for _, s := range t.segs {
		switch s.v {
		case 0:
			dst = append(dst, s.lit...)
		case bWorker:
			dst = strconv.AppendInt(dst, int64(c.Worker), 10)
		case bIter:
			dst = strconv.AppendInt(dst, int64(c.Iter), 10)
		case bFile:
			dst = strconv.AppendInt(dst, int64(c.File), 10)
		case bVersion:
			dst = strconv.AppendInt(dst, int64(c.Version), 10)
		case bPort:
			dst = strconv.AppendInt(dst, int64(c.Port), 10)
		}
	}
	return dst
}

// expander substitutes the scenario's own variables.
type expander struct {
	vars map[string]string
}

// compile substitutes user variables in s and keeps built-ins as slots.
// A variable that is neither is an error naming it.
func (e *expander) compile(s string) (*template, error) {
	t := &template{}
	var lit strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			lit.WriteString(s)
			break
		}
		lit.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("unclosed ${ in %q", s)
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		s = s[i+j+1:]
		if v, ok := e.vars[name]; ok {
			lit.WriteString(v)
			continue
		}
		b, ok := builtins[name]
		if !ok {
			return nil, fmt.Errorf("unknown variable ${%s} (define it under vars: or pass --var %s=VALUE)", name, name)
		}
		if lit.Len() > 0 {
			t.segs = append(t.segs, segment{lit: lit.String()})
			lit.Reset()
		}
		t.segs = append(t.segs, segment{v: b})
	}
	if lit.Len() > 0 {
		t.segs = append(t.segs, segment{lit: lit.String()})
	}
	return t, nil
}

// expand substitutes user variables only: for fields that are fixed for the
// whole run (numbers, durations, the base URL).
func (e *expander) expand(s string) (string, error) {
	t, err := e.compile(s)
	if err != nil {
		return "", err
	}
	if !t.static() {
		return "", fmt.Errorf("%q uses a per-request variable, which is not allowed here", s)
	}
	return string(t.append(nil, nil)), nil
}

func (e *expander) integer(s string, def int64) (int64, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	v, err := e.expand(s)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if ferr != nil || f != float64(int64(f)) {
			return 0, fmt.Errorf("%q is not a whole number", v)
		}
		n = int64(f)
	}
	return n, nil
}

func (e *expander) number(s string, def float64) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	v, err := e.expand(s)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return f, nil
}
