package app

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// FreePort picks a port for an app and checks it with a bind. The kernel's
// own choice (port 0) comes from the ephemeral range, the one every
// outgoing connection on this machine also takes its local port from (the
// load generator's, other engineers' JVMs'), so the port could be taken
// again before the app binds it. A port chosen at random away from that
// range is only taken by another process choosing the same way. A taken
// port that slips through is reported as the trial's port-in-use.
func FreePort() (int, error) {
	lo, hi := portRange(readEphemeral(ephemeralFile))
	var last error
	for range 64 {
		p := lo + rand.IntN(hi-lo+1)
		if last = bindable(p); last == nil {
			return p, nil
		}
	}
	return 0, fmt.Errorf("cannot find a free port in %d-%d: %w", lo, hi, last)
}

const ephemeralFile = "/proc/sys/net/ipv4/ip_local_port_range"

// readEphemeral is the kernel's ephemeral range, or Linux's default.
func readEphemeral(path string) (lo, hi int) {
	lo, hi = 32768, 60999
	b, err := os.ReadFile(path)
	if err != nil {
		return lo, hi
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return lo, hi
	}
	l, err1 := strconv.Atoi(f[0])
	h, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || l < 1 || h < l || h > 65535 {
		return lo, hi
	}
	return l, h
}

// portRange is where apps' ports are picked: below the ephemeral range,
// above the well-known and common service ports (up to 10000), or above it
// when the range below is too narrow.
func portRange(ephLo, ephHi int) (lo, hi int) {
	const floor, wide = 10000, 2000
	if ephLo-1-floor >= wide {
		return floor, ephLo - 1
	}
	if 65535-(ephHi+1) >= wide {
		return ephHi + 1, 65535
	}
	return floor, 65535 // no room either side: anything unprivileged
}

// bindable says whether an app could listen on port p: on every address
// (what Spring Boot and most servers bind) and so on loopback too.
func bindable(p int) error {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
	if err != nil {
		return err
	}
	return l.Close()
}
