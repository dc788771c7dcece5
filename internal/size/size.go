// Package size parses and formats memory sizes the way JVM and container
// users write them.
//
// Suffixes are binary, as in the JVM (-Xmx300M) and Docker (-m 300M):
// k/K/Ki = 1024, m/M/Mi = 1024², g/G/Gi = 1024³, t/T/Ti = 1024⁴. An optional
// trailing "B" is accepted ("300MB", "1GiB"). A bare number is bytes.
package size

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const (
	KiB int64 = 1 << 10
	MiB int64 = 1 << 20
	GiB int64 = 1 << 30
	TiB int64 = 1 << 40
)

// Parse reads a size such as "256Mi", "300M", "1G", "1.5GiB" or "4096".
func Parse(s string) (int64, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return 0, fmt.Errorf("empty size: give a number with an optional unit, e.g. 256Mi or 1G")
	}
	num := strings.TrimRight(in, "kKmMgGtTiIbB")
	unit := in[len(num):]
	mult, ok := units[unit]
	if !ok {
		return 0, fmt.Errorf("bad size %q: unknown unit %q (use Ki, Mi, Gi, Ti or K, M, G, T)", s, unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bad size %q: %q is not a number (e.g. 256Mi or 1G)", s, num)
	}
	if v < 0 {
		return 0, fmt.Errorf("bad size %q: sizes cannot be negative", s)
	}
	b := v * float64(mult)
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("bad size %q: too large", s)
	}
	return int64(b), nil
}

var units = map[string]int64{
	"": 1, "b": 1, "B": 1,
	"k": KiB, "K": KiB, "Ki": KiB, "KB": KiB, "kB": KiB, "KiB": KiB,
	"m": MiB, "M": MiB, "Mi": MiB, "MB": MiB, "MiB": MiB,
	"g": GiB, "G": GiB, "Gi": GiB, "GB": GiB, "GiB": GiB,
	"t": TiB, "T": TiB, "Ti": TiB, "TB": TiB, "TiB": TiB,
}

// Format prints b in the largest binary unit that keeps it readable:
// whole units when exact ("256Mi"), one decimal otherwise ("1.5Gi").
func Format(b int64) string {
	switch {
	case b >= GiB:
		return trim(float64(b)/float64(GiB)) + "Gi"
	case b >= MiB:
		return trim(float64(b)/float64(MiB)) + "Mi"
	case b >= KiB:
		return trim(float64(b)/float64(KiB)) + "Ki"
	}
	return strconv.FormatInt(b, 10)
}

func trim(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// JVM prints b as a JVM size argument ("256m", "1g", "524288k"), exact, in
// the largest unit that divides it.
func JVM(b int64) string {
	switch {
	case b > 0 && b%GiB == 0:
		return strconv.FormatInt(b/GiB, 10) + "g"
	case b > 0 && b%MiB == 0:
		return strconv.FormatInt(b/MiB, 10) + "m"
	case b > 0 && b%KiB == 0:
		return strconv.FormatInt(b/KiB, 10) + "k"
	}
	return strconv.FormatInt(b, 10)
}
