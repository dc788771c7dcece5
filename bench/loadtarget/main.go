// Command loadtarget is bench/load.sh's target: a fast loopback HTTP server
// that answers every request with a short fixed body, so that the
// benchmark measures the load generators, not the service. It prints its
// address (host:port) on stdout once it listens.
//
// (It is not under bench/target/: .gitignore drops Maven's target/ folders.)
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtarget:", err)
		os.Exit(1)
	}
	fmt.Println(l.Addr().String())
	body := []byte("ok\n")
	err = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}))
	fmt.Fprintln(os.Stderr, "loadtarget:", err)
	os.Exit(1)
}
