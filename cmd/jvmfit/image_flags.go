package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/docker"
)

// imageFlags run a container image as the app (docs/docker.md): --image
// with --ready (as --jar), the engine and the published port. run has its
// own --ready and --scenario; the experiments get them here.
type imageFlags struct {
	image, engine   string
	ready, scenario string // experiments only
	containerPort   int
}

func (f *imageFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.image, "image", "", "a container image to run as the app, NAME[:TAG] (with --ready): each trial runs it under docker or podman with the trial's limits (docs/docker.md)")
	fl.StringVar(&f.engine, "engine", "", "container engine for an image app: docker or podman (default: docker if its daemon answers, else podman)")
	fl.IntVar(&f.containerPort, "container-port", 0, "with --image: the app's port in the container, published on 127.0.0.1 at --ready's port (default: the container shares the host's network)")
}

// registerExperiment adds --image with the --ready and --scenario it needs
// to an experiment's flags, which otherwise take only a descriptor.
func (f *imageFlags) registerExperiment(fl *pflag.FlagSet) {
	f.register(fl)
	fl.StringVar(&f.ready, "ready", "", "with --image: URL whose first 2xx answer means started")
	fl.StringVar(&f.scenario, "scenario", "", "with --image: load scenario (docs/scenario.md); without one only start and memory are judged")
}

// check refuses the combinations that make no sense, before anything runs.
func (f *imageFlags) check(a *app.App) error {
	if f.engine != "" && f.engine != docker.Docker && f.engine != docker.Podman {
		return fmt.Errorf("--engine %q: give docker or podman", f.engine)
	}
	if f.containerPort != 0 && f.image == "" {
		return errors.New("--container-port goes with --image (a descriptor has container_port)")
	}
	if f.engine != "" && a != nil && a.Image == "" {
		return errors.New("--engine is for an image app: give --image, or image: in the descriptor")
	}
	return nil
}

// fromImage is the app --image describes.
func (f *imageFlags) fromImage(ready, scenario string) (*app.App, error) {
	return app.FromImage(f.image, ready, scenario, f.containerPort)
}

// experimentApp is an experiment's app: its descriptor, or --image.
func (f *imageFlags) experimentApp(appFile string) (*app.App, error) {
	var a *app.App
	var err error
	switch {
	case appFile != "" && f.image != "":
		return nil, errors.New("give --app or --image, not both")
	case f.image != "":
		a, err = f.fromImage(f.ready, f.scenario)
	case f.ready != "" || f.scenario != "":
		return nil, errors.New("--ready and --scenario go with --image; a descriptor has its own")
	case appFile == "":
		return nil, errors.New("--app is required: give the service's app.yaml (see docs/app.md), or --image NAME --ready URL")
	default:
		a, err = app.Load(appFile)
	}
	if err != nil {
		return nil, err
	}
	return a, f.check(a)
}
