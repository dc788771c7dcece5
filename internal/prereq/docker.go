package prereq

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// CheckDocker is nil when the docker command exists and its daemon (the
// default socket's or DOCKER_HOST's) answers.
func CheckDocker() error {
	if _, err := exec.LookPath("docker"); err != nil {
		return &Missing{What: "docker (the docker command)", Fix: Installer}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, "docker", "version", "--format", "{{.Server.Version}}").Run(); err != nil {
		return &Missing{What: "a Docker daemon that answers (docker version: " + err.Error() + ")",
			Fix: "start one with `bash .ci/install test`, or point DOCKER_HOST at yours"}
	}
	return nil
}

// Docker fails t unless a Docker daemon answers.
func Docker(t testing.TB) {
	t.Helper()
	Need(t, CheckDocker())
}
