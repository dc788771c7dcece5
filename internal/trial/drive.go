package trial

import (
	"context"
	"net/url"
	"strconv"

	"github.com/jvmfit/jvmfit/internal/app"
)

// runLoad drives the scenario and stops early if the app dies under it.
func runLoad(ctx context.Context, drv Driver, p Process, base string, spec Spec, d Deps, r *Result) error {
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.Done():
			cancel()
		case <-lctx.Done():
		}
	}()
	o := LoadOptions{Base: base, Rate: spec.Rate, Warmup: spec.Warmup, Duration: spec.Duration, Progress: d.Progress}
	phases, measured, err := drv.Run(lctx, o)
	r.Phases, r.Load = phases, measured
	if err != nil || !alive(p) {
		return err
	}
	if spec.Saturate {
		sat, err := drv.Saturate(lctx, o)
		if err != nil && alive(p) && ctx.Err() == nil {
			r.Notes = append(r.Notes, "saturation probe failed: "+err.Error())
		}
		r.Saturation = sat
	}
	return nil
}

// scenarioVars layers the scenario's variables: descriptor vars, then
// --var, then what only the runner knows (the port, the management port
// when the app has one, the rate).
func scenarioVars(a *app.App, spec Spec, port, managementPort int) map[string]string {
	vars := map[string]string{}
	for k, v := range a.Vars {
		vars[k] = v
	}
	for k, v := range spec.Vars {
		vars[k] = v
	}
	vars["port"] = strconv.Itoa(port)
	if managementPort != 0 {
		vars["management_port"] = strconv.Itoa(managementPort)
	}
	if spec.Rate > 0 {
		vars["rate"] = strconv.FormatFloat(spec.Rate, 'f', -1, 64)
	}
	return vars
}

// baseURL is the readiness URL's scheme and host: the load's target.
func baseURL(ready string) string {
	u, err := url.Parse(ready)
	if err != nil {
		return ready
	}
	return u.Scheme + "://" + u.Host
}

// loadBase is the load's target: the launch's Base (the app's port), or
// the readiness URL's host for a launch built without one.
func loadBase(l app.Launch) string {
	if l.Base != "" {
		return l.Base
	}
	return baseURL(l.Ready)
}
