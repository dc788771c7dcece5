package main

import (
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/app"
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
	fl.StringVar(&f.ready, "ready", "", "with --image (or a --jar whose framework has no health endpoint): URL whose first 2xx answer means started")
	fl.StringVar(&f.scenario, "scenario", "", "with --jar or --image: load scenario (docs/scenario.md) instead of --get's")
}

// source is the app the flags name, for app.Resolve.
func (f *imageFlags) source(appFile, ready, scenario string) app.Source {
	return app.Source{Descriptor: appFile, Image: f.image, Ready: ready, Scenario: scenario,
		ContainerPort: f.containerPort, Engine: f.engine}
}

// experimentApp is an experiment's app: its descriptor, --jar or --image.
func (f *imageFlags) experimentApp(appFile string, own *ownAppFlags, db, java string) (*app.App, error) {
	src := f.source(appFile, f.ready, f.scenario)
	src.Jar = own.jar
	return own.resolve(src, db, java)
}
