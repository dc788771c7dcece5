package experiment

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The places on a room of more CPUs than this machine has: disjoint, the
// app's CPUs and one for its load each, in order; too many is one line.
func TestPlacesCutTheCPUs(t *testing.T) {
	cpus := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	ps, err := newPlaces(Room{CPUs: 1.5, MemoryBytes: 256 * mi}, 3, cpus)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		p := ps.take()
		got = append(got, p.cpuset()+"+"+cgroup.FormatCPUList([]int{p.load}))
	}
	if want := []string{"0-1+2", "3-4+5", "6-7+8"}; !slices.Equal(got, want) {
		t.Errorf("places %v, want %v", got, want)
	}
	_, err = newPlaces(Room{CPUs: 1}, 3, cpus[:5])
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "needs 6 CPUs") || !strings.Contains(err.Error(), "--parallel 2 or less") {
		t.Errorf("3 trials of 1 CPU on 5 CPUs: %v", err)
	}
}

// Trials side by side through a Session with places each run on CPUs of
// their own, disjoint from every other trial running with it; they are
// stored under keys without the placement, so a rerun at the same
// settings takes them from the store whatever CPUs they had.
func TestSessionPlacesTrialsApart(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	var mu sync.Mutex
	running := map[string]bool{}
	var clash []string
	run := func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		mu.Lock()
		if spec.Placement == "" {
			clash = append(clash, "a trial ran without a placement")
		}
		for other := range running {
			a, _ := cgroup.ParseCPUList(other)
			b, _ := cgroup.ParseCPUList(spec.Placement)
			for _, c := range b {
				if slices.Contains(a, c) {
					clash = append(clash, spec.Placement+" beside "+other)
				}
			}
		}
		running[spec.Placement] = true
		mu.Unlock()
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		delete(running, spec.Placement)
		mu.Unlock()
		return f.run(ctx, spec)
	}
	for pass := range 2 {
		s := newSession(t, st, f, "minmem")
		s.Run, s.Parallel = run, 4
		var err error
		if s.places, err = newPlaces(Room{CPUs: 2}, 4, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}); err != nil {
			t.Fatal(err)
		}
		p := MinMemPlan{CPUs: []float64{2}, JVMs: []string{"default"}, Search: Search{Min: 64 * mi, Max: 1024 * mi, Step: 8 * mi}}
		if _, err := p.Run(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		ran, reused := s.Counts()
		if pass == 0 && (ran == 0 || reused != 0) || pass == 1 && (ran != 0 || reused == 0) {
			t.Errorf("pass %d: ran %d, reused %d", pass, ran, reused)
		}
	}
	if len(clash) > 0 {
		t.Errorf("placements: %v", clash)
	}
}
