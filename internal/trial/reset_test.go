//go:build linux

package trial

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// resetMidResponse answers every other /work request with its headers and
// part of its body, then resets the connection (RST, not FIN).
func resetMidResponse(t *testing.T) http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/work" || n.Add(1)%2 == 0 {
			w.Write([]byte("ok"))
			return
		}
		c, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + strings.Repeat("x", 100))
		buf.Flush()
		time.Sleep(5 * time.Millisecond)
		c.(*net.TCPConn).SetLinger(0)
		c.Close()
	})
}

// A target that resets connections mid-response: the trial goes on, the
// errors are counted by what they were, and the SLO judges the success
// ratio; nothing crashes and nothing is left.
func TestTargetThatResetsMidResponse(t *testing.T) {
	f := newFakes(t, nil)
	dir := t.TempDir()
	sc := filepath.Join(dir, "reset.yaml")
	os.WriteFile(sc, []byte(`requests:
  work: {url: /work}
phases:
  - {name: measure, model: open, rate: 40, duration: 2s, workers: 4, timeout: 2s, sequence: [work]}
`), 0o644)
	a := *f.app
	a.Scenario = sc
	f.sb.handler = resetMidResponse(t)
	f.deps.Loader = realLoader{}
	r, err := Run(context.Background(), f.spec, &a, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Load == nil {
		t.Fatal("no load report")
	}
	t.Logf("%s\nerrors %q, status codes %v", r.Line(), r.Load.Errors, r.Load.StatusCodes)
	if r.Verdict != KO || r.Kind != KindSLO || !strings.HasPrefix(r.Failed[0], "success ") {
		t.Errorf("%s %s %q, want KO slo on success", r.Verdict, r.Kind, r.Failed)
	}
	if r.Load.Requests < 60 || r.Load.Success < 0.3 || r.Load.Success > 0.7 {
		t.Errorf("%d requests, success %.2f: want about half of 80 answered", r.Load.Requests, r.Load.Success)
	}
	var resets int64
	for _, e := range r.Load.Errors {
		var n int64
		fmt.Sscanf(e, "%d×", &n)
		if strings.Contains(e, "connection reset by peer") || strings.Contains(e, "unexpected EOF") {
			resets += n
		}
	}
	if ok := int64(float64(r.Load.Requests)*r.Load.Success + 0.5); resets+ok != r.Load.Requests {
		t.Errorf("%d resets and %d answers for %d requests: errors %q", resets, ok, r.Load.Requests, r.Load.Errors)
	}
	f.checkCleanedUp(t, r)
}
