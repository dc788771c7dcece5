//go:build linux

package load

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Every request error names the method and URL that were sent, with
// per-request variables as written so that equal failures count together.
func TestErrorsNameMethodAndURL(t *testing.T) {
	noLeak(t)
	status := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	silent := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	reset := loadtest.Listen(t)
	go func() {
		for {
			c, err := reset.Accept()
			if err != nil {
				return
			}
			// Read the request, then abort: the client sees a reset.
			c.Read(make([]byte, 4096))
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}
	}()
	refused := "127.0.0.1:" + loadtest.ClosedPort(t)
	cases := []struct {
		name, host, method, want string
	}{
		{"non-2xx", strings.TrimPrefix(status.URL, "http://"), "GET", "unexpected status 503"},
		{"timeout", strings.TrimPrefix(silent.URL, "http://"), "GET", "timeout after 300ms"},
		{"reset", reset.Addr().String(), "DELETE", "read: connection reset by peer"},
		{"refused", refused, "POST", "dial: connection refused"},
	}
	for _, c := range cases {
		sc, err := scenario.Parse([]byte(`base: http://`+c.host+`/api
requests:
  item: {method: `+c.method+`, url: "/items/${iter}"}
phases: [{model: closed, requests: 3, timeout: 300ms}]
`), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := Run(ctx, sc, Options{})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := "3× " + c.method + " http://" + c.host + "/api/items/${iter}: " + c.want
		if errs := res.Total.Errors; len(errs) != 1 || errs[0] != want {
			t.Errorf("%s: errors %q, want [%q]", c.name, errs, want)
		}
	}
}
