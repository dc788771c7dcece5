//go:build linux

// Package service runs the services an app declares in its descriptor
// (services:, docs/app.md), such as a throwaway PostgreSQL cluster, each in
// its own cgroup with its own limits. A service exists for one trial: it is
// created before the app starts and removed, data included, after it stops.
package service

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
)

// Options tune how services are started for one trial.
type Options struct {
	// Database is the database and role created for the app; "" = "app".
	Database string
	// Log receives the services' own output; nil keeps only a tail, shown
	// when a service fails to start.
	Log io.Writer
	// ReadyTimeout bounds the wait for a service to accept connections;
	// 0 = DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// NoLimits runs services without cgroups (not root, or a baseline).
	NoLimits bool
	// CPUSet is where the services of kind http and command run: the
	// trial's placement keeps them off the app's CPUs; "" = anywhere.
	CPUSet string
}

// DefaultReadyTimeout is generous: initdb and the first start of a cluster
// on a loaded 2-core machine take a few seconds.
const DefaultReadyTimeout = 60 * time.Second

// Usage is a stopped service's footprint, read from its cgroup.
type Usage struct {
	Name        string
	Kind        string
	MemoryLimit int64 // 0 = none
	CPUs        float64
	MemoryPeak  int64
	CPUTime     time.Duration
	OOMKilled   bool
}

// Instance is one running service.
type Instance interface {
	Name() string
	// Exports are the variables the app's args and env may use, named
	// <service>_<var>: port, host, url, user, password.
	Exports() map[string]string
	Pid() int
	Done() <-chan struct{}
	// Stats reads its cgroup now: memory peak so far and CPU time.
	Stats() (Usage, error)
	// Stop shuts the service down, kills what is left of it, removes its
	// cgroup and data, and returns its footprint. Safe to call many times.
	Stop() (Usage, error)
}

// Start starts one declared service and returns once it accepts
// connections. On error nothing of it is left running or on disk.
func Start(ctx context.Context, s app.Service, o Options) (Instance, error) {
	switch s.Kind {
	case KindPostgres:
		return startPostgres(ctx, s, o)
	case KindHTTP:
		return startHTTP(ctx, s, o)
	case KindCommand:
		return startCommand(ctx, s, o)
	default:
		return nil, fmt.Errorf("service %q: unknown kind %q (known: %s, %s, %s)", s.Name, s.Kind, KindPostgres, KindHTTP, KindCommand)
	}
}
