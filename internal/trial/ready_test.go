package trial

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
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
