package trial

import (
	"context"
	"errors"
	"io"
	"net/http"
	neturl "net/url"
	"strings"
	"syscall"
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
	readyGCBound // the JVM collected a full heap without end (gcbound.go)
)

// appState is what readiness polling watches besides the URL: the process
// ending, its cgroup stalling at the memory limit, and the JVM bound in GC.
type appState struct {
	died, stalled, gcBound <-chan struct{}
}

// waitReady polls url until it answers 2xx, the process dies or stalls,
// timeout passes or ctx ends. It returns the time from start to the first
// 2xx, and the last answer that was not one (a status and the start of
// its body, or why there was none), which a not-ready verdict quotes.
func waitReady(ctx context.Context, url string, start time.Time, timeout time.Duration, app appState) (time.Duration, readiness, string) {
	d, rd, last, _ := waitReadyOr(ctx, url, nil, start, timeout, app)
	return d, rd, last
}

// waitReadyOr is waitReady that, the first time url answers 404 (the app
// serves, but not that path), asks each alternative path once on url's
// host; the first to answer 2xx is taken as the readiness URL and
// returned as answered ("" when url itself answered).
func waitReadyOr(ctx context.Context, url string, alternatives []string, start time.Time, timeout time.Duration, app appState) (time.Duration, readiness, string, string) {
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
	last, tried := "none", ""
	for {
		per := min(time.Until(deadline), readyRequestTimeout)
		if per > 0 {
			ok, answer := poll(ctx, client, url, per)
			if ok {
				return time.Since(start), ready, "", ""
			}
			last = answer + tried
			if strings.HasPrefix(answer, "404") && len(alternatives) > 0 {
				if alt := firstAnswering(ctx, client, url, alternatives); alt != "" {
					return time.Since(start), ready, "", alt
				}
				tried = "; tried once too, none answered 2xx: " + strings.Join(alternatives, ", ")
				last += tried
				alternatives = nil // once
			}
		}
		if rd, end := app.ended(ctx, nil); end {
			return 0, rd, last, ""
		}
		if !time.Now().Before(deadline) {
			return 0, readyTimedOut, last, ""
		}
		if rd, end := app.ended(ctx, tick.C); end {
			return 0, rd, last, ""
		}
	}
}

// alternativeTimeout bounds the one request to an alternative: longer
// than a poll's, as it is not asked again, and an app that already
// answered the readiness URL is up.
const alternativeTimeout = 5 * time.Second

// firstAnswering asks each path once on url's scheme and host; the URL
// of the first to answer 2xx, "" if none.
func firstAnswering(ctx context.Context, c *http.Client, url string, paths []string) string {
	u, err := neturl.Parse(url)
	if err != nil {
		return ""
	}
	for _, p := range paths {
		alt := u.Scheme + "://" + u.Host + p
		if ok, _ := poll(ctx, c, alt, alternativeTimeout); ok {
			return alt
		}
	}
	return ""
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
	case <-a.gcBound:
		return readyGCBound, true
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
	case <-a.gcBound:
		return readyGCBound, true
	case <-tick:
		return 0, false
	}
}

// poll asks url once: whether it answered 2xx, and what it answered.
func poll(ctx context.Context, c *http.Client, url string, timeout time.Duration) (bool, string) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false, err.Error()
	}
	resp, err := c.Do(req)
	if err != nil {
		return false, noAnswer(err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode >= 200 && resp.StatusCode < 300, answerText(resp.Status, body)
}

// answerText is a status and the start of the body, on one line.
func answerText(status string, body []byte) string {
	b := strings.Join(strings.Fields(string(body)), " ")
	if len(b) > 80 {
		b = b[:80] + "..."
	}
	if b == "" {
		return status
	}
	return status + " " + b
}

// noAnswer says why a poll got no answer, without Go's URL prefix.
func noAnswer(err error) string {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (nothing listens on that port)"
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer within " + readyRequestTimeout.String()
	}
	return err.Error()
}
