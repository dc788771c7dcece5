package docker

import (
	"context"
	"fmt"

	"github.com/jvmfit/jvmfit/internal/app"
)

// Engines jvmfit can drive, by their command's name (named once, in app,
// where --engine is checked).
const (
	Docker = app.EngineDocker
	Podman = app.EnginePodman
)

// Select is the engine --engine names, checked: "docker" or "podman"; ""
// detects one, docker if its daemon answers, else podman. The error is one
// line saying what to install or start.
func Select(ctx context.Context, name string) (Engine, error) {
	switch name {
	case Docker, Podman:
		e := Engine{Bin: name}
		return e, e.Check(ctx)
	case "":
		d := Engine{Bin: Docker}
		derr := d.Check(ctx)
		if derr == nil {
			return d, nil
		}
		if p := (Engine{Bin: Podman}); p.Check(ctx) == nil {
			return p, nil
		}
		return Engine{}, fmt.Errorf("no container engine answers: %w (or install podman)", derr)
	}
	return Engine{}, fmt.Errorf("--engine %q: give docker or podman", name)
}
