package record

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// StartProgress prints one self-overwriting line for the phase name,
// twice a second, until stop is called; limit is its duration (0: none
// known). A nil w prints nothing.
func StartProgress(w io.Writer, name string, limit time.Duration, rec *Recorder) (stop func()) {
	if w == nil {
		return func() {}
	}
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	line := func() {
		el := time.Since(start)
		n := rec.sentCount()
		rate := 0.0
		if el > 0 {
			rate = float64(n) / el.Seconds()
		}
		of := ""
		if limit > 0 {
			of = "/" + limit.String()
		}
		fmt.Fprintf(w, "\r\033[K%s %.1fs%s  requests %d  %.1f/s  errors %d  late %d",
			name, el.Seconds(), of, n, rate, rec.errs.Load(), rec.late.Load())
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				line()
			case <-done:
				line()
				fmt.Fprintln(w)
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
