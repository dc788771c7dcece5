// Package doctor says where jvmfit's trials would run on this host and
// with what: the cgroup version, the place the trial groups go
// (cgroup.FindPlace, changing nothing), their controllers, whether swap and
// PSI are there, each container engine's cgroup driver, and whether a real
// trial ran on this kind of host in the project's tests. `jvmfit doctor`
// prints it, and so do the first lines of `jvmfit run -v`.
package doctor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/docker"
)

// Report is one line per fact, in the order printed.
type Report struct {
	Cgroup      string
	Place       string
	Controllers string
	Swap        string
	PSI         string
	// Tested says whether a real trial ran on this kind of host in the
	// project's tests (tested.go).
	Tested  string
	Engines []string
	// Refusal is the one-line refusal when trials cannot get limits here
	// (a *cgroup.PlaceError), nil when they can.
	Refusal error
}

// Lines are the report as printed.
func (r Report) Lines() []string {
	out := []string{
		"cgroup:      " + r.Cgroup,
		"place:       " + r.Place,
		"controllers: " + r.Controllers,
		"swap:        " + r.Swap,
		"psi:         " + r.PSI,
		"tested:      " + r.Tested,
	}
	for _, e := range r.Engines {
		out = append(out, "engine:      "+e)
	}
	return out
}

// DriverFunc asks a container engine ("docker", "podman") for its cgroup
// driver; tests give a fake.
type DriverFunc func(ctx context.Context, engine string) (string, error)

// EngineDriver is the real DriverFunc: the engine's own info command.
func EngineDriver(ctx context.Context, engine string) (string, error) {
	if _, err := exec.LookPath(engine); err != nil {
		return "", fmt.Errorf("not installed")
	}
	return docker.Engine{Bin: engine}.CgroupDriver(ctx)
}

// Collect reads the host under root ("/" in production).
func Collect(ctx context.Context, root string, driver DriverFunc) Report {
	var r Report
	h, herr := cgroup.ReadHierarchy(root)
	switch {
	case herr != nil:
		r.Cgroup = "none found (" + herr.Error() + ")"
	case h.Version == 2:
		r.Cgroup = "v2 (unified) at " + h.Mounts[""]
	case hybrid(root):
		r.Cgroup = "v1 (hybrid: the v2 mount has no controllers)"
	default:
		r.Cgroup = "v1"
	}
	p, err := cgroup.FindPlace(root)
	if err != nil {
		r.Refusal = err
		r.Place = "none: " + err.Error()
		r.Controllers = "-"
	} else {
		r.Place = p.String()
		r.Controllers = strings.Join(p.Controllers, " ")
	}
	r.Tested = "-"
	if err == nil {
		r.Tested = placeTested(p)
	}
	r.Swap = swap(root, h, p)
	r.PSI = psi(root)
	for _, e := range []string{docker.Docker, docker.Podman} {
		d, err := driver(ctx, e)
		if err != nil {
			r.Engines = append(r.Engines, e+": "+err.Error())
			continue
		}
		r.Engines = append(r.Engines, e+": cgroup driver "+d+"; "+engineTested(h.Version, e, d))
	}
	return r
}

// hybrid: cgroup v1 controllers with a v2 tree beside them (systemd's
// "unified" mount), which holds no controller.
func hybrid(root string) bool {
	_, err := os.Stat(filepath.Join(root, "sys/fs/cgroup/unified/cgroup.controllers"))
	return err == nil
}

// swap says whether the host swaps at all (/proc/swaps) and whether the
// memory controller accounts it, which is what lets a trial forbid it.
func swap(root string, h cgroup.Hierarchy, p cgroup.Place) string {
	b, _ := os.ReadFile(filepath.Join(root, "proc/swaps"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	devices := len(lines) - 1 // the header
	if devices < 0 || len(b) == 0 {
		devices = 0
	}
	file := "memory.memsw.limit_in_bytes"
	dirs := []string{h.Dir("memory")}
	if h.Version == 2 {
		file = "memory.swap.max"
		dirs = []string{h.Dir(""), p.Parent}
	}
	acct := false
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, file)); d != "" && err == nil {
			acct = true
		}
	}
	switch {
	case devices == 0 && acct:
		return "no swap device; accounted (" + file + "), so trials forbid it"
	case devices == 0:
		return "no swap device; not accounted (no " + file + ")"
	case acct:
		return fmt.Sprintf("%d swap device(s); accounted (%s), so trials forbid it", devices, file)
	}
	return fmt.Sprintf("%d swap device(s) but not accounted (no %s): a trial may swap past its limit; boot with swapaccount=1", devices, file)
}

// psi: pressure stall information, which the stall watch reads.
func psi(root string) string {
	if _, err := os.ReadFile(filepath.Join(root, "proc/pressure/memory")); err != nil {
		return "off (no /proc/pressure/memory; boot with psi=1)"
	}
	return "on (/proc/pressure)"
}
