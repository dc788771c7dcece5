package trial

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/service"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Services starts the services an app declares (services: in app.yaml,
// e.g. its database) before the app, each in its own cgroup.
type Services interface {
	Start(ctx context.Context, a *app.App, spec Spec, progress io.Writer) (RunningServices, error)
}

// RunningServices are one trial's started services.
type RunningServices interface {
	// Exports fill ${db_url} and the like in the app's args and env.
	Exports() map[string]string
	// Stop ends them, removes their data, and returns their footprint.
	// Safe to call many times.
	Stop() ([]ServiceUsage, error)
}

type realServices struct{}

func (realServices) Start(ctx context.Context, a *app.App, spec Spec, progress io.Writer) (RunningServices, error) {
	if len(a.Services) == 0 {
		return noServices{}, nil
	}
	t0 := time.Now()
	set, err := service.StartAll(ctx, a.Services, service.Options{
		Database: databaseName(a.Name),
		NoLimits: spec.NoLimits || os.Geteuid() != 0,
	})
	if err != nil {
		return nil, err
	}
	if progress != nil {
		for _, in := range set.Instances() {
			fmt.Fprintf(progress, "service %s ready in %.1fs (pid %d)\n", in.Name(), time.Since(t0).Seconds(), in.Pid())
		}
	}
	return realRunning{set}, nil
}

type realRunning struct{ set *service.Set }

func (r realRunning) Exports() map[string]string { return r.set.Exports() }

func (r realRunning) Stop() ([]ServiceUsage, error) {
	us, err := r.set.Stop()
	out := make([]ServiceUsage, len(us))
	for i, u := range us {
		out[i] = ServiceUsage{Name: u.Name, Kind: u.Kind, MemoryBytes: u.MemoryLimit, CPUs: u.CPUs,
			MemoryPeak: u.MemoryPeak, CPUTime: u.CPUTime, OOMKilled: u.OOMKilled}
	}
	return out, err
}

type noServices struct{}

func (noServices) Exports() map[string]string    { return nil }
func (noServices) Stop() ([]ServiceUsage, error) { return nil, nil }

// databaseName is the app's name as a PostgreSQL identifier: the database
// and role the app connects as.
func databaseName(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9' && b.Len() > 0, c == '_':
			b.WriteRune(c)
		default:
			if b.Len() > 0 {
				b.WriteByte('_')
			}
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" {
		return "app"
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// serviceNotes says what went wrong with a service without deciding the
// verdict: the app's own SLO shows the effect.
func serviceNotes(us []ServiceUsage) []string {
	var notes []string
	for _, u := range us {
		if u.OOMKilled {
			notes = append(notes, fmt.Sprintf("service %s was OOM-killed at its %s limit", u.Name, size.Format(u.MemoryBytes)))
		}
	}
	return notes
}
