package experiment

import (
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// progressEvery is how often a line that rewrites itself (the load
// generator's live counter) is kept when the output is not a terminal.
const progressEvery = 10 * time.Second

// ProgressWriter is the one progress stream of an experiment or a trial.
// On a terminal it is w itself, where a line that rewrites itself (\r,
// ESC[K) is the live view. Anywhere else (a file, a pipe, CI) it writes
// plain lines: escape sequences are dropped, and of the versions of a
// rewritten line only one every progressEvery and the last are kept.
func ProgressWriter(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return w
	}
	return &plainLines{w: w, every: progressEvery, now: time.Now}
}

type plainLines struct {
	w     io.Writer
	every time.Duration
	now   func() time.Time

	mu   sync.Mutex
	cur  []byte    // the line being written
	esc  int       // 0 text, 1 after ESC, 2 inside a CSI sequence
	last time.Time // when a rewritten line was last kept
}

func (p *plainLines) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range b {
		if err := p.byte(c); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

func (p *plainLines) byte(c byte) error {
	switch {
	case p.esc == 1:
		p.esc = 0
		if c == '[' {
			p.esc = 2
		}
	case p.esc == 2:
		if c >= 0x40 && c <= 0x7e { // a CSI sequence ends with its final byte
			p.esc = 0
		}
	case c == 0x1b:
		p.esc = 1
	case c == '\r':
		// The line so far is about to be rewritten: keep it only now and then.
		if len(p.cur) > 0 && p.now().Sub(p.last) >= p.every {
			p.last = p.now()
			return p.flush()
		}
		p.cur = p.cur[:0]
	case c == '\n':
		return p.flush()
	default:
		p.cur = append(p.cur, c)
	}
	return nil
}

func (p *plainLines) flush() error {
	_, err := p.w.Write(append(p.cur, '\n'))
	p.cur = p.cur[:0]
	return err
}
