package prereq

import (
	"strings"
	"testing"
)

// TestCheckDockerSaysWhatIsMissing: no docker command, and a daemon that
// does not answer, each give one line naming the fix.
func TestCheckDockerSaysWhatIsMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if err := CheckDocker(); err == nil || !strings.Contains(err.Error(), "docker command") || !strings.Contains(err.Error(), ".ci/install") {
		t.Errorf("no docker on PATH: %v", err)
	}
}

func TestCheckDockerNoDaemon(t *testing.T) {
	// Without a daemon of our own there is nothing to point elsewhere.
	Docker(t)
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	if err := CheckDocker(); err == nil || !strings.Contains(err.Error(), "DOCKER_HOST") {
		t.Errorf("a daemon that does not answer: %v", err)
	}
}
