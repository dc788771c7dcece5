//go:build linux

// Package backend holds where a trial's app runs, one package per backend,
// each implementing trial.Backend: local (cgroups on this machine),
// container (Docker, Podman), kube (a Kubernetes Job per trial). This file
// is the one rule for a trial on this machine; experiment chooses between
// it and Kubernetes (experiment/backends.go).
package backend

import (
	"github.com/jvmfit/jvmfit/internal/backend/container"
	"github.com/jvmfit/jvmfit/internal/backend/local"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Local is the backend that runs app a on this machine: an image app as a
// container, any other in a cgroup of jvmfit's own.
func Local(a *trial.App) trial.Backend {
	if a != nil && a.Image != "" {
		return container.Backend{}
	}
	return local.Backend{}
}
