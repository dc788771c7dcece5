package plan

import (
	"fmt"
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
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o, "-XX:+") || strings.HasPrefix(o, "-XX:-"):
			name := o[5:]
			u.set(name, o, "")
			u.bools[name] = o[4] == '+'
			if strings.HasPrefix(name, "Use") && strings.HasSuffix(name, "GC") && o[4] == '+' {
				u.set("gc", o, strings.TrimSuffix(strings.TrimPrefix(name, "Use"), "GC"))
			}
			if name == "CrashOnOutOfMemoryError" {
				u.set("ExitOnOutOfMemoryError", o, "")
			}
		case strings.HasPrefix(o, "-XX:"):
			name, val, ok := strings.Cut(o[4:], "=")
			if !ok {
				continue
			}
			u.set(name, o, val)
		case len(o) > 4 && sizeAlias[o[:4]] != "":
			u.set(sizeAlias[o[:4]], o, o[4:])
		case strings.HasPrefix(o, "-D"):
			k, _, _ := strings.Cut(o, "=")
			u.set(k, o, strings.TrimPrefix(o, k+"="))
		}
	}
	for _, k := range []string{"MaxHeapSize", "InitialHeapSize", "ThreadStackSize", "MaxMetaspaceSize",
		"CompressedClassSpaceSize", "ReservedCodeCacheSize", "MaxDirectMemorySize"} {
		if _, err := u.size(k); err != nil {
			return u, err
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
