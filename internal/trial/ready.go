package trial

import (
	"context"
	"io"
	"net/http"
	"time"
)

// readyPoll is how often readiness is polled; it bounds the error on the
// measured start time.
const readyPoll = 100 * time.Millisecond

// readyRequestTimeout bounds one poll: a server that accepts and never
// answers costs a poll this long, not the whole ready_timeout, and the
// next poll tries again on a fresh connection.
const readyRequestTimeout = time.Second

type readiness int

const (
	ready readiness = iota
	readyTimedOut
	readyDied
	readyCancelled
	readyStalled // the cgroup sat at its memory limit with reclaim failing
)

// appState is what readiness polling watches besides the URL: the process
// ending, and its cgroup stalling at the memory limit.
type appState struct {
	died, stalled <-chan struct{}
}

// waitReady polls url until it answers 2xx, the process dies or stalls,
// timeout passes or ctx ends. It returns the time from start to the first
// 2xx.
func waitReady(ctx context.Context, url string, start time.Time, timeout time.Duration, app appState) (time.Duration, readiness) {
	client := &http.Client{
		// A fresh connection per poll: a server that accepted and then
		// stalled must not make us wait on a stale keep-alive socket.
		Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	deadline := start.Add(timeout)
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		per := min(time.Until(deadline), readyRequestTimeout)
		if per > 0 && poll(ctx, client, url, per) {
			return time.Since(start), ready
		}
		if rd, end := app.ended(ctx, nil); end {
			return 0, rd
		}
		if !time.Now().Before(deadline) {
			return 0, readyTimedOut
		}
		if rd, end := app.ended(ctx, tick.C); end {
			return 0, rd
		}
	}
}

// ended says whether polling must stop, and why; with a nil tick it does
// not wait, otherwise it waits for the next tick.
func (a appState) ended(ctx context.Context, tick <-chan time.Time) (readiness, bool) {
	select {
	case <-ctx.Done():
		return readyCancelled, true
	case <-a.died:
		return readyDied, true
	case <-a.stalled:
		return readyStalled, true
	default:
	}
	if tick == nil {
		return 0, false
	}
	select {
	case <-ctx.Done():
		return readyCancelled, true
	case <-a.died:
		return readyDied, true
	case <-a.stalled:
		return readyStalled, true
	case <-tick:
		return 0, false
	}
}

func poll(ctx context.Context, c *http.Client, url string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode >= 200 && resp.StatusCode < 300
}
