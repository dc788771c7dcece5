package docker

import (
	"context"
	"strings"
	"testing"
)

// TestCheckSaysWhatIsMissing: a missing command and a daemon that does not
// answer are one-line errors naming the fix.
func TestCheckSaysWhatIsMissing(t *testing.T) {
	err := Engine{Bin: "jvmfit-no-such-engine"}.Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no jvmfit-no-such-engine command on PATH") {
		t.Errorf("missing command: %v", err)
	}
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	err = Default().Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "DOCKER_HOST") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a daemon that does not answer: %v", err)
	}
}
