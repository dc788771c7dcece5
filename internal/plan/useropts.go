package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// userSet is what the user's own options fix. Keys are HotSpot flag names
// (Xmx and friends mapped to MaxHeapSize...), "-Dprop" for properties, and
// "gc" for any collector choice.
type userSet struct {
	keys   map[string]string // key → the option text that set it
	values map[string]string // key → raw value ("" for booleans)
	bools  map[string]bool   // -XX:+Name / -XX:-Name
}

var sizeAlias = map[string]string{"-Xmx": "MaxHeapSize", "-Xms": "InitialHeapSize", "-Xss": "ThreadStackSize", "-Xmn": "NewSize"}

// parseUser reads the user's options; a malformed size is an error since
// the JVM would refuse it too.
func parseUser(opts []string) (userSet, error) {
	u := userSet{keys: map[string]string{}, values: map[string]string{}, bools: map[string]bool{}}
	// The keys are FlagKey's, so that the planner and Override agree on
	// what a user's option sets.
	sizes := []string{"MaxHeapSize", "InitialHeapSize", "ThreadStackSize", "MaxMetaspaceSize",
		"CompressedClassSpaceSize", "ReservedCodeCacheSize", "MaxDirectMemorySize"}
	for _, o := range opts {
		k, val, on := flagOf(o)
		if k == "" {
			continue
		}
		u.set(k, o, val)
		// Each occurrence: the JVM rejects a malformed one even when a
		// later option sets the flag again.
		if slices.Contains(sizes, k) {
			if _, err := u.size(k); err != nil {
				return u, err
			}
		}
		if strings.HasPrefix(o, "-XX:+") || strings.HasPrefix(o, "-XX:-") {
			u.bools[o[5:]] = on
			if k == "gc" {
				u.set(o[5:], o, "")
			}
		}
		for _, d := range regionOf[k] {
			if d == "ExitOnOutOfMemoryError" {
				u.set(d, o, "")
			}
		}
	}
	return u, nil
}

func (u userSet) set(k, opt, val string) { u.keys[k], u.values[k] = opt, val }

func (u userSet) has(k string) bool { _, ok := u.keys[k]; return ok }

// size returns a user-given size in bytes (0 if not set). ThreadStackSize
// given as -XX:ThreadStackSize is in KiB, as the JVM reads it.
func (u userSet) size(k string) (int64, error) {
	v, ok := u.values[k]
	if !ok {
		return 0, nil
	}
	if k == "ThreadStackSize" && strings.HasPrefix(u.keys[k], "-XX:") {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("bad option %s: ThreadStackSize is a number of KiB", u.keys[k])
		}
		return n * size.KiB, nil
	}
	b, err := size.Parse(v)
	if err != nil || b <= 0 {
		return 0, fmt.Errorf("bad option %s: %q is not a size like 256m or 1g", u.keys[k], v)
	}
	return b, nil
}

// number returns a user-given numeric value (ok false if absent or not a number).
func (u userSet) number(k string) (float64, bool) {
	v, ok := u.values[k]
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}
