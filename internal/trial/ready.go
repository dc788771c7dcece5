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

type readiness int

const (
	ready readiness = iota
	readyTimedOut
	readyDied
	readyCancelled
)

// waitReady polls url until it answers 2xx, the process dies, timeout
// passes or ctx ends. It returns the time from start to the first 2xx.
func waitReady(ctx context.Context, url string, start time.Time, timeout time.Duration, died <-chan struct{}) (time.Duration, readiness) {
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
		per := time.Until(deadline)
		if per > time.Second {
			per = time.Second
		}
		if per > 0 && poll(ctx, client, url, per) {
			return time.Since(start), ready
		}
		select {
		case <-ctx.Done():
			return 0, readyCancelled
		case <-died:
			return 0, readyDied
		default:
		}
		if !time.Now().Before(deadline) {
			return 0, readyTimedOut
		}
		select {
		case <-ctx.Done():
			return 0, readyCancelled
		case <-died:
			return 0, readyDied
		case <-tick.C:
		}
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
