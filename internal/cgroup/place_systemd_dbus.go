//go:build linux

package cgroup

import (
	"context"
	"fmt"
	"time"

	sdbus "github.com/coreos/go-systemd/v22/dbus"
	"github.com/godbus/dbus/v5"
)

// dbusSystemd is systemd on the system bus (DBUS_SYSTEM_BUS_ADDRESS or the
// standard socket), through go-systemd's client as runc's driver uses it.
type dbusSystemd struct{ c *sdbus.Conn }

// DialSystemd connects to systemd over the system bus, giving up after
// timeout. The connection must not hang on a context: godbus closes a
// connection when the context it was dialled with ends.
func DialSystemd(timeout time.Duration) (Systemd, error) {
	type dialled struct {
		c   *sdbus.Conn
		err error
	}
	ch := make(chan dialled, 1)
	go func() {
		c, err := sdbus.NewSystemConnectionContext(context.Background())
		ch <- dialled{c, err}
	}()
	select {
	case d := <-ch:
		if d.err != nil {
			return nil, d.err
		}
		return dbusSystemd{d.c}, nil
	case <-time.After(timeout):
		go func() {
			if d := <-ch; d.c != nil {
				d.c.Close()
			}
		}()
		return nil, fmt.Errorf("no answer on the system bus within %s", timeout)
	}
}

func (s dbusSystemd) Close() { s.c.Close() }

func (s dbusSystemd) Version() (string, error) { return s.c.GetManagerProperty("Version") }

func (s dbusSystemd) StartScope(ctx context.Context, unit, slice string, pid int) error {
	props := []sdbus.Property{
		sdbus.PropDescription("jvmfit trial groups"),
		sdbus.PropSlice(slice),
		sdbus.PropPids(uint32(pid)),
		{Name: "Delegate", Value: dbus.MakeVariant(true)},
		// Gone once jvmfit is, even if it failed: nothing for a sweep.
		{Name: "CollectMode", Value: dbus.MakeVariant("inactive-or-failed")},
	}
	done := make(chan string, 1)
	if _, err := s.c.StartTransientUnitContext(ctx, unit, "replace", props, done); err != nil {
		return err
	}
	return waitJob(ctx, unit, done)
}

func (s dbusSystemd) StopUnit(ctx context.Context, unit string) error {
	done := make(chan string, 1)
	if _, err := s.c.StopUnitContext(ctx, unit, "replace", done); err != nil {
		return err
	}
	return waitJob(ctx, unit, done)
}

// waitJob waits for the JobRemoved signal of a unit's job.
func waitJob(ctx context.Context, unit string, done <-chan string) error {
	select {
	case r := <-done:
		if r != "done" {
			return fmt.Errorf("job for %s ended %q", unit, r)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("no answer from systemd for %s: %w", unit, ctx.Err())
	}
}
