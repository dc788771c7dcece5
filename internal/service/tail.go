//go:build linux

package service

import (
	"strings"
	"sync"
)

// tailSize bounds the output kept to explain a failed start.
const tailSize = 8 << 10

// tail keeps the last bytes a service wrote.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailSize:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

func (t *tail) last(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := lastLines(string(t.buf), n)
	if s == "" {
		return "no output"
	}
	return s
}

// lastLines joins the last n non-empty lines into one line.
func lastLines(s string, n int) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, " | ")
}
