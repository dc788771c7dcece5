//go:build linux

package service

import (
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/jvmfit/jvmfit/internal/upstream"
)

// TestMain answers `upstream` as jvmfit does, so the kind http services
// this package's tests start run the test binary itself (Executable);
// `listen NETWORK ADDR` is a command that listens where it is told and
// closes what it accepts (a wildcard bind, for the loopback check; tcp4,
// since Go's tcp makes 0.0.0.0 a dual-stack [::]).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "upstream" {
		os.Exit(upstream.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 3 && os.Args[1] == "listen" {
		l, err := net.Listen(os.Args[2], os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("listening on", l.Addr())
		for {
			c, err := l.Accept()
			if err != nil {
				os.Exit(1)
			}
			c.Close()
		}
	}
	os.Exit(m.Run())
}
