package load

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/load/engine"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// plan is a scenario with options applied and targets resolved.
type plan struct {
	engine.Plan
	phases []*scenario.Phase
}

// Validate applies opts to sc and checks the result (limits, targets,
// loopback) without sending anything.
func Validate(ctx context.Context, sc *scenario.Scenario, opts Options) error {
	_, err := prepare(ctx, sc, opts)
	return err
}

func prepare(ctx context.Context, sc *scenario.Scenario, opts Options) (*plan, error) {
	if sc == nil {
		return nil, errors.New("no scenario")
	}
	if opts.Rate < 0 || opts.Duration < 0 || opts.Workers < 0 || opts.MaxInflight < 0 {
		return nil, errors.New("rate, duration, workers and max-inflight must not be negative")
	}
	pl := &plan{Plan: engine.Plan{Index: map[string]int{}, Files: sc.Files, Timeout: sc.Timeout, Drain: opts.Drain}}
	if err := pl.target(ctx, sc, opts); err != nil {
		return nil, err
	}
	pl.phases = applyOptions(sc.Phases, opts)
	for _, p := range pl.phases {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("phase %s: %w", p.Name, err)
		}
	}
	return pl, nil
}

// target binds every request to the address it goes to, and checks that
// each address is on loopback.
func (pl *plan) target(ctx context.Context, sc *scenario.Scenario, opts Options) error {
	base, err := overrideBase(sc.Base, opts.Base)
	if err != nil {
		return err
	}
	var baseHost, basePath string
	if base != "" {
		u, err := scenario.ParseURL(base)
		if err != nil {
			return err
		}
		baseHost, basePath = u.Host, strings.TrimRight(u.Path, "/")
		_, pl.Port, _ = splitHostPort(u.Host)
	}
	if v, ok := sc.Vars["port"]; ok {
		if pl.Port, err = strconv.Atoi(v); err != nil {
			return fmt.Errorf("vars.port: %q is not a port number", v)
		}
	}
	checked := map[string]bool{}
	for i, r := range sc.Requests {
		pl.Index[r.Name] = i
		host, prefix := baseHost, basePath
		if r.Origin() != "" {
			u, _ := scenario.ParseURL(r.Origin())
			host, prefix = u.Host, ""
		}
		if host == "" {
			return fmt.Errorf("request %s: no target: give base: in the scenario or a target URL", r.Name)
		}
		if !checked[host] {
			if err := checkLoopback(ctx, host, opts.AllowRemote); err != nil {
				return err
			}
			checked[host] = true
		}
		pl.Wires = append(pl.Wires, scenario.NewWire(r, host, prefix))
	}
	return nil
}

// overrideBase points the scenario's base at target. A target without a
// path (the app's address, as jvmfit run gives it) keeps the scenario's
// path, so base: http://127.0.0.1:8080/petclinic still prefixes every
// relative URL with /petclinic; a target with a path replaces it.
func overrideBase(base, target string) (string, error) {
	if target == "" {
		return base, nil
	}
	u, err := scenario.ParseURL(target)
	if err != nil {
		return "", fmt.Errorf("target: %w", err)
	}
	if u.Path != "/" || base == "" {
		return u.Origin + u.Path, nil
	}
	b, err := scenario.ParseURL(base)
	if err != nil {
		return "", err
	}
	return u.Origin + b.Path, nil
}

func splitHostPort(hp string) (string, int, error) {
	i := strings.LastIndexByte(hp, ':')
	if i < 0 {
		return hp, 0, errors.New("no port")
	}
	p, err := strconv.Atoi(hp[i+1:])
	return hp[:i], p, err
}
