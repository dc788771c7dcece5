//go:build linux

package probe

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// NMTCategory is one Native Memory Tracking category, in bytes.
type NMTCategory struct {
	Reserved  int64 `json:"reserved"`
	Committed int64 `json:"committed"`
}

// NMTTotal is the key ParseNMT gives the "Total:" line.
const NMTTotal = "Total"

// A category line, the same from JDK 11 to 25 (25 may add ", readonly=…"):
//
//   - Java Heap (reserved=65536KB, committed=65536KB)
//     Total: reserved=1504781KB, committed=127865KB
var (
	nmtCategory = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^-\s+(.+?)\s+\(reserved=(\d+)([KMG]?B), committed=(\d+)([KMG]?B)`)
	})
	nmtTotal = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Total:\s+reserved=(\d+)([KMG]?B), committed=(\d+)([KMG]?B)`)
	})
)

var nmtUnits = map[string]int64{"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}

// ParseNMT reads the output of `jcmd <pid> VM.native_memory summary` into
// categories (e.g. "Java Heap", "Class", "Thread", "Code", "GC", "Metaspace")
// plus NMTTotal.
func ParseNMT(text string) (map[string]NMTCategory, error) {
	if strings.Contains(text, "Native memory tracking is not enabled") {
		return nil, fmt.Errorf("native memory tracking is not enabled in the JVM: start it with -XX:NativeMemoryTracking=summary")
	}
	out := map[string]NMTCategory{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		var name string
		var m []string
		if m = nmtCategory().FindStringSubmatch(line); m != nil {
			name, m = m[1], m[2:]
		} else if m = nmtTotal().FindStringSubmatch(line); m != nil {
			name, m = NMTTotal, m[1:]
		} else {
			continue
		}
		r, _ := strconv.ParseInt(m[0], 10, 64)
		c, _ := strconv.ParseInt(m[2], 10, 64)
		out[name] = NMTCategory{Reserved: r * nmtUnits[m[1]], Committed: c * nmtUnits[m[3]]}
	}
	if _, ok := out[NMTTotal]; !ok {
		first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
		return nil, fmt.Errorf("no native memory summary in jcmd output (it said %q)", first)
	}
	return out, nil
}

// JcmdFor is the jcmd next to a java binary ("" when java has none, as in
// stripped runtimes).
func JcmdFor(java string) string {
	j := filepath.Join(filepath.Dir(java), "jcmd")
	if _, err := exec.LookPath(j); err != nil {
		return ""
	}
	return j
}

// NMT asks a running JVM (started with -XX:NativeMemoryTracking=summary) for
// its native memory summary. jcmd must run as the JVM's user and must match
// its JDK; ctx bounds the call.
func NMT(ctx context.Context, jcmdPath string, pid int) (map[string]NMTCategory, error) {
	if jcmdPath == "" {
		return nil, fmt.Errorf("no jcmd: the JDK has none next to java (stripped runtime?); NMT needs a full JDK")
	}
	cmd := exec.CommandContext(ctx, jcmdPath, strconv.Itoa(pid), "VM.native_memory", "summary")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("jcmd %d VM.native_memory: %w", pid, ctx.Err())
	}
	cats, perr := ParseNMT(string(out))
	if perr != nil {
		if err != nil {
			return nil, fmt.Errorf("jcmd %d VM.native_memory: %v: %s", pid, err, lastLine(out))
		}
		return nil, perr
	}
	return cats, nil
}

// lastLine is where jcmd puts its reason (after any stack trace).
func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
