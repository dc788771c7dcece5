package trial

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
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
