package trial

import (
	"regexp"
	"strings"
	"sync"
)

// The JVM names the memory area it ran out of in the OutOfMemoryError's
// message, on the line ExitOnOutOfMemoryError prints ("Terminating due to
// java.lang.OutOfMemoryError: Metaspace") and in an uncaught exception's
// trace ("Exception in thread "main" java.lang.OutOfMemoryError: Java heap
// space"). Those messages are fixed strings in HotSpot and the JDK.
var oomAreas = []string{
	"Java heap space",
	"Metaspace",
	"Compressed class space",
	"Direct buffer memory",
	"unable to create native thread",
	"GC overhead limit exceeded",
	"Requested array size exceeds VM limit",
	"Cannot reserve", // direct memory on JDK 21+: "Cannot reserve N bytes of direct buffer memory"
}

var oomLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`java\.lang\.OutOfMemoryError(?:: (.*))?$`)
})

// oomArea returns the area a line's OutOfMemoryError names, "" when the
// line reports none. An unknown message is returned as it is.
func oomArea(line string) (string, bool) {
	m := oomLine().FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", false
	}
	msg := strings.TrimSpace(m[1])
	for _, a := range oomAreas {
		if strings.HasPrefix(msg, a) {
			if a == "Cannot reserve" {
				return "Direct buffer memory", true
			}
			return a, true
		}
	}
	if msg == "" {
		return "unknown area", true
	}
	return msg, true
}

// codeCacheFull matches HotSpot's warning when the code cache (or one of
// its segments: "CodeHeap 'non-profiled nmethods' is full") has no room
// left: the JIT stops compiling and the app runs on in the interpreter.
func codeCacheFull(line string) bool {
	return strings.Contains(line, "is full. Compiler has been disabled")
}

// CodeCacheFinding is the finding a full code cache records.
const CodeCacheFinding = "the code cache filled up and the JVM disabled its JIT compiler (raise -XX:ReservedCodeCacheSize)"
