package experiment

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress hears about a sweep's cells as they finish.
type Progress interface {
	Start(total int)
	Done(cr CellResult, took time.Duration)
	Finish()
}

// NewProgress draws a bar with an ETA when w is an interactive terminal,
// and otherwise writes one line per cell (logs and CI keep a readable record).
func NewProgress(w io.Writer) Progress {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &barProgress{w: w}
	}
	return &lineProgress{w: w}
}

// eta estimates the time left from the cells actually run: reused cells
// take no time, so a plain items-per-second rate would be far too hopeful
// right after a resume.
type eta struct {
	total, done, ran int
	spent            time.Duration
}

func (e *eta) add(cr CellResult, took time.Duration) {
	e.done++
	if !cr.Reused {
		e.ran++
		e.spent += took
	}
}

func (e *eta) left() string {
	if e.ran == 0 {
		return "?"
	}
	d := e.spent / time.Duration(e.ran) * time.Duration(e.total-e.done)
	return d.Round(time.Second).String()
}

func verdictLine(cr CellResult) string {
	r := cr.Result
	s := r.Verdict
	if r.Kind != "" {
		s += " (" + r.Kind + ")"
	}
	if cr.Reused {
		s += " [from store]"
	}
	return s
}

type lineProgress struct {
	w io.Writer
	eta
}

func (p *lineProgress) Start(total int) { p.total = total }
func (p *lineProgress) Finish()         {}
func (p *lineProgress) Done(cr CellResult, took time.Duration) {
	p.add(cr, took)
	fmt.Fprintf(p.w, "[%d/%d] %s: %s in %s, ETA %s\n", p.done, p.total, cr.Cell, verdictLine(cr), took.Round(100*time.Millisecond), p.left())
}

type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
	eta
}

func (p *barProgress) Start(total int) {
	p.total = total
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("sweep"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(false), // our own ETA below
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowDescriptionAtLineEnd(),
	)
}

func (p *barProgress) Done(cr CellResult, took time.Duration) {
	p.add(cr, took)
	p.bar.Describe(fmt.Sprintf("%s: %s · ETA %s", cr.Cell, verdictLine(cr), p.left()))
	_ = p.bar.Add(1)
}

func (p *barProgress) Finish() {
	_ = p.bar.Finish()
	fmt.Fprintln(p.w)
}
