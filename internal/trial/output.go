package trial

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// tailLines is how much of the app's output a KO result keeps.
const tailLines = 30

// output collects the app's stdout and stderr: every line goes to the log
// file and a ring of the last lines. The -XX:+PrintFlagsFinal block the
// runner asks for is consumed here (MaxHeapSize is read from it) so it
// neither floods the log nor pushes the app's own last words out of the
// tail.
type output struct {
	mu      sync.Mutex
	log     io.Writer
	ring    []string
	next    int
	full    bool
	inFlags bool
	heapMax int64
	// oomArea is the area of the first OutOfMemoryError the app reported;
	// the first is the cause, later ones its echoes.
	oomArea       string
	codeCacheFull bool
}

func newOutput(log io.Writer) *output { return &output{log: log, ring: make([]string, tailLines)} }

// stream returns a writer that cuts what it gets into lines; it keeps the
// unfinished last line until the rest comes.
func (o *output) stream() io.Writer { return &stream{o: o} }

type stream struct {
	o       *output
	partial []byte
}

func (s *stream) Write(b []byte) (int, error) {
	s.partial = append(s.partial, b...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		s.o.line(string(s.partial[:i]))
		s.partial = s.partial[i+1:]
	}
	// A process that prints megabytes without a newline must not grow
	// memory without bound.
	if len(s.partial) > 64<<10 {
		s.o.line(string(s.partial))
		s.partial = s.partial[:0]
	}
	return len(b), nil
}

var flagLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\S+\s+(\S+)\s+:?=\s*(\S*).*\{[^}]*\}`) })

func (o *output) line(l string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	l = strings.TrimRight(l, "\r")
	if l == "[Global flags]" {
		o.inFlags = true
		return
	}
	if o.inFlags {
		if m := flagLine().FindStringSubmatch(l); m != nil {
			if m[1] == "MaxHeapSize" {
				o.heapMax, _ = strconv.ParseInt(m[2], 10, 64)
			}
			return
		}
		o.inFlags = false
	}
	if a, ok := oomArea(l); ok && o.oomArea == "" {
		o.oomArea = a
	}
	if codeCacheFull(l) {
		o.codeCacheFull = true
	}
	if o.log != nil {
		io.WriteString(o.log, l+"\n")
	}
	o.ring[o.next] = l
	o.next = (o.next + 1) % len(o.ring)
	if o.next == 0 {
		o.full = true
	}
}

// Tail returns the last lines, oldest first.
func (o *output) Tail() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var lines []string
	if o.full {
		lines = append(lines, o.ring[o.next:]...)
	}
	lines = append(lines, o.ring[:o.next]...)
	return strings.Join(lines, "\n")
}

// HeapMax is MaxHeapSize as the JVM reported it, 0 if it did not.
func (o *output) HeapMax() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.heapMax
}

// Memory is what the app's output said about its memory: the area of a
// Java OutOfMemoryError ("" if none) and whether the code cache filled up.
func (o *output) Memory() (oomArea string, codeCacheFull bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.oomArea, o.codeCacheFull
}
