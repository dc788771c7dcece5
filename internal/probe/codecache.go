package probe

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A code heap line of `jcmd PID Compiler.codecache`, segmented (tiered,
// three heaps) or not (one "CodeCache" line), JDK 11 to 25:
//
//	CodeHeap 'non-profiled nmethods': size=120032Kb used=2371Kb max_used=2371Kb free=117660Kb
//	CodeCache: size=49152Kb used=9317Kb max_used=9317Kb free=39834Kb
var codeHeapLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:CodeHeap '[^']+'|CodeCache):\s+size=(\d+)Kb,? used=(\d+)Kb,? max_used=(\d+)Kb`)
})

// ParseCodeCache sums the code heaps' max_used: the code cache's
// high-water mark so far, in bytes. JDK 25 adds a "CodeCache:" total after
// its segmented heaps; the heaps are summed, the total used only alone.
func ParseCodeCache(text string) (int64, error) {
	var heaps, whole int64
	found := false
	for _, line := range strings.Split(text, "\n") {
		m := codeHeapLine().FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		n, _ := strconv.ParseInt(m[3], 10, 64)
		if strings.HasPrefix(strings.TrimSpace(line), "CodeHeap") {
			heaps += n << 10
		} else {
			whole = n << 10
		}
		found = true
	}
	if heaps > 0 {
		return heaps, nil
	}
	if !found {
		first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
		return 0, fmt.Errorf("no code heap in Compiler.codecache output (it said %q)", first)
	}
	return whole, nil
}
