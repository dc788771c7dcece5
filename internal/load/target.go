package load

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/engine"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// checkLoopback refuses a target that is not on this machine: a load
// generator pointed at someone else's service by a typo is an attack.
func checkLoopback(ctx context.Context, hostPort string, allowRemote bool) error {
	if allowRemote {
		return nil
	}
	host, _, err := net.SplitHostPort(hostPort)
	if err != nil {
		return fmt.Errorf("target %s: %w", hostPort, err)
	}
	refuse := fmt.Errorf("target %s is not a loopback address: jvmfit load drives only local services (127.0.0.1, ::1, localhost) unless --allow-remote is given", hostPort)
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil {
		if ip.IsLoopback() {
			return nil
		}
		return refuse
	}
	rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(rctx, host)
	if err != nil || len(addrs) == 0 {
		return fmt.Errorf("target %s: cannot resolve %s (use 127.0.0.1:PORT for a local service)", hostPort, host)
	}
	for _, a := range addrs {
		if !a.IP.IsLoopback() {
			return refuse
		}
	}
	return nil
}

// Reachable connects once to every target of the scenario, so that a wrong
// port is one clear error before the run rather than a report full of
// refused connections.
func Reachable(ctx context.Context, sc *scenario.Scenario, opts Options) error {
	pl, err := prepare(ctx, sc, opts)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, w := range pl.Wires {
		if seen[w.Addr] {
			continue
		}
		seen[w.Addr] = true
		d := net.Dialer{Timeout: 3 * time.Second}
		c, err := d.DialContext(ctx, "tcp", w.Addr)
		if err != nil {
			return fmt.Errorf("target %s is unreachable: %s (is the service running on that port?)", w.Addr, engine.ErrorKey(err))
		}
		c.Close()
	}
	return nil
}
