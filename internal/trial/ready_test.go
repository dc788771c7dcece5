package trial

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// A not-ready verdict quotes the last answer: a status and the start of
// its body, or why nothing answered.
func TestWaitReadyKeepsTheLastAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("{\"error\":\n  \"no such path /actuator/health\"}"))
	}))
	defer srv.Close()
	_, rd, last := waitReady(context.Background(), srv.URL+"/actuator/health", time.Now(), 400*time.Millisecond, appState{})
	if rd != readyTimedOut || last != `404 Not Found {"error": "no such path /actuator/health"}` {
		t.Errorf("%v, last answer %q", rd, last)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	_, rd, last = waitReady(context.Background(), "http://"+closed+"/health", time.Now(), 300*time.Millisecond, appState{})
	if rd != readyTimedOut || !strings.HasPrefix(last, "connection refused") {
		t.Errorf("%v, last answer %q", rd, last)
	}

	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv2.Close()
	if _, rd, last = waitReady(context.Background(), srv2.URL+"/observe/health", time.Now(), time.Second, appState{}); rd != ready || last != "" {
		t.Errorf("204: %v, %q", rd, last)
	}
}

// A readiness URL that answers 404: each alternative is asked once, the
// first to answer 2xx is taken; when none does, polling goes on with the
// original and the last answer says which were tried.
func TestWaitReadyTriesAlternativesOnce(t *testing.T) {
	asked := map[string]int{}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		if r.URL.Path == "/health" {
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	_, rd, _, alt := waitReadyOr(context.Background(), srv.URL+"/actuator/health", []string{"/q/health", "/health", "/never"}, time.Now(), 2*time.Second, appState{})
	if rd != ready || alt != srv.URL+"/health" || asked["/q/health"] != 1 || asked["/never"] != 0 {
		t.Errorf("%v %q %v", rd, alt, asked)
	}
	asked = map[string]int{}
	_, rd, last, alt := waitReadyOr(context.Background(), srv.URL+"/actuator/health", []string{"/q/health", "/never"}, time.Now(), 500*time.Millisecond, appState{})
	if rd != readyTimedOut || alt != "" || asked["/q/health"] != 1 || asked["/actuator/health"] < 2 ||
		!strings.HasSuffix(last, "tried once too, none answered 2xx: /q/health, /never") {
		t.Errorf("%v %q %q %v", rd, alt, last, asked)
	}
}
