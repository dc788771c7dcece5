package load

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// startProgress prints one self-overwriting line per phase, twice a second.
func startProgress(w io.Writer, p *Phase, rec *recorder) (stop func()) {
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
		limit := ""
		if p.Duration > 0 {
			limit = "/" + p.Duration.String()
		}
		fmt.Fprintf(w, "\r\033[K%s %.1fs%s  requests %d  %.1f/s  errors %d  late %d",
			p.Name, el.Seconds(), limit, n, rate, rec.errs.Load(), rec.late.Load())
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
