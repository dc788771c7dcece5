package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// maxAxisValues keeps a typo ("100..100000/1") from planning a sweep that
// would run for weeks.
const maxAxisValues = 1000

// ParseNumbers reads an axis of numbers: a comma-separated list whose items
// are a value ("0.5") or an inclusive range with a step ("100..1000/100").
func ParseNumbers(flag, s string) ([]float64, error) {
	return parseAxis(flag, s, "100..1000/100 or 0.5,1,2", func(v string) (float64, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%q is not a number", v)
		}
		return f, nil
	})
}

// ParseSizes reads an axis of memory sizes, like ParseNumbers but with
// units: "512Mi,1Gi" or "256Mi..1Gi/128Mi".
func ParseSizes(flag, s string) ([]int64, error) {
	vals, err := parseAxis(flag, s, "512Mi,1Gi or 256Mi..1Gi/128Mi", func(v string) (float64, error) {
		b, err := size.Parse(v)
		return float64(b), err
	})
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v)
	}
	return out, err
}

func parseAxis(flag, s, example string, num func(string) (float64, error)) ([]float64, error) {
	var out []float64
	seen := map[float64]bool{}
	add := func(v float64) error {
		if v <= 0 {
			return fmt.Errorf("--%s: values must be positive, got %v", flag, v)
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
		if len(out) > maxAxisValues {
			return fmt.Errorf("--%s %q gives more than %d values; use a larger step", flag, s, maxAxisValues)
		}
		return nil
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("--%s %q has an empty item; write e.g. %s", flag, s, example)
		}
		from, rest, isRange := strings.Cut(item, "..")
		if !isRange {
			v, err := num(item)
			if err != nil {
				return nil, fmt.Errorf("--%s: %v; write e.g. %s", flag, err, example)
			}
			if err := add(v); err != nil {
				return nil, err
			}
			continue
		}
		to, stepS, hasStep := strings.Cut(rest, "/")
		if !hasStep {
			return nil, fmt.Errorf("--%s: range %q needs a step, e.g. %s", flag, item, example)
		}
		a, errA := num(from)
		b, errB := num(to)
		step, errS := num(stepS)
		for _, err := range []error{errA, errB, errS} {
			if err != nil {
				return nil, fmt.Errorf("--%s: range %q: %v; write e.g. %s", flag, item, err, example)
			}
		}
		if step <= 0 || b < a {
			return nil, fmt.Errorf("--%s: range %q must go up by a positive step, e.g. %s", flag, item, example)
		}
		// Count steps as integers so 0.1-sized steps do not drift past the end.
		n := int(math.Floor((b-a)/step + 1e-9))
		if n >= maxAxisValues {
			return nil, fmt.Errorf("--%s %q gives more than %d values; use a larger step", flag, s, maxAxisValues)
		}
		for i := 0; i <= n; i++ {
			if err := add(roundTiny(a + float64(i)*step)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// roundTiny removes float noise such as 0.30000000000000004.
func roundTiny(v float64) float64 {
	r := math.Round(v*1e6) / 1e6
	if math.Abs(r-v) < 1e-9*math.Max(1, math.Abs(v)) {
		return r
	}
	return v
}

// ParseList splits a comma-separated list of words (JVM modes, java paths),
// dropping empty items and duplicates. A JVM option string with commas of
// its own cannot be given this way; use an option set instead.
func ParseList(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
