package experiment

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// N trials side by side on this machine need N × (the app's CPUs + one for
// the load) and N memory limits; short of either, one line names what
// they would need.
func TestLocalRoom(t *testing.T) {
	h := host{CPUs: 8, AvailableBytes: 8 * size.GiB}
	r := Room{CPUs: 1, MemoryBytes: size.GiB}
	if err := r.fits(4, h); err != nil {
		t.Errorf("4 trials of 1 CPU and 1Gi on 8 CPUs and 8Gi: %v", err)
	}
	for _, c := range []struct {
		n    int
		r    Room
		want string
	}{
		{5, r, "needs 10 CPUs"},
		{4, Room{CPUs: 1.5, MemoryBytes: size.GiB}, "needs 12 CPUs"},
		{4, Room{CPUs: 1, MemoryBytes: 3 * size.GiB}, "needs 12Gi of memory"},
	} {
		err := c.r.fits(c.n, h)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%d × %+v: %v; want one line with %q", c.n, c.r, err, c.want)
		}
	}
}

// This 2-CPU machine has no room for two 1-CPU trials side by side: the
// backend refuses before anything starts, as a usage error.
func TestLocalParallelRefusedWithoutRoom(t *testing.T) {
	s := &Session{}
	cfg := BackendConfig{Name: "local", Parallel: hostRoom().CPUs, Room: Room{CPUs: 1, MemoryBytes: 256 * size.MiB}}
	_, err := s.UseBackend(context.Background(), cfg, "x.db")
	var be *BackendError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "CPUs on this machine") {
		t.Fatalf("--parallel %d at 1 CPU: %v; want a BackendError naming the CPUs", cfg.Parallel, err)
	}
	cfg.Room = Room{}
	if _, err := s.UseBackend(context.Background(), BackendConfig{Name: "local", Parallel: 2}, "x.db"); !errors.As(err, &be) {
		t.Errorf("--parallel 2 for a sweep on this machine: %v; want refused", err)
	}
}

// placement: separate pins jvmfit's one process for a trial: beside other
// trials on this machine it is refused as a usage error before the room is
// even counted (so on any machine), naming both ways out; one trial at a
// time, an image app, and Kubernetes keep it.
func TestSeparatePlacementRefusedSideBySide(t *testing.T) {
	a := &app.App{Name: "sidecar", File: "workloads/sidecar/app.yaml", Placement: app.PlacementSeparate}
	s := &Session{App: a}
	room := Room{CPUs: 1, MemoryBytes: 64 * size.MiB}
	_, err := s.UseBackend(context.Background(), BackendConfig{Name: "local", Parallel: 2, Room: room}, "x.db")
	var be *BackendError
	if !errors.As(err, &be) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("--parallel 2 with placement: separate: %v; want one line, a BackendError", err)
	}
	for _, want := range []string{"--parallel 2", "placement: separate in workloads/sidecar/app.yaml", "--parallel 1", "placement: shared"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err, want)
		}
	}
	if err := separateBesideOthers(a, 2); err == nil {
		t.Error("the rule itself lets it through")
	}
	if _, err := s.UseBackend(context.Background(), BackendConfig{Name: "local", Parallel: 1, Room: room}, "x.db"); err != nil {
		t.Errorf("--parallel 1 with placement: separate: %v", err)
	}
	img := *a
	img.Image = "sidecar:1"
	if err := separateBesideOthers(&img, 2); err != nil {
		t.Errorf("an image app, never placed: %v", err)
	}
	shared := *a
	shared.Placement = ""
	if err := separateBesideOthers(&shared, 2); err != nil {
		t.Errorf("placement: shared: %v", err)
	}
}
