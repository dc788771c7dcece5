//go:build linux

package trial

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/service"
)

// realServices starts them with internal/service, each in a cgroup.
type realServices struct{}

func (realServices) Start(ctx context.Context, a *app.App, spec Spec, progress io.Writer) (RunningServices, error) {
	if len(a.Services) == 0 {
		return noServices{}, nil
	}
	t0 := time.Now()
	set, err := service.StartAll(ctx, a.Services, service.Options{
		Database: databaseName(a.Name),
		NoLimits: spec.NoLimits || os.Geteuid() != 0,
		CPUSet:   spec.SideCPUSet,
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
