package trial

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/record"
)

// echoingSandbox is a sandbox that echoes its launches its own way, as the
// container backend echoes a docker run.
type echoingSandbox struct {
	*fakeSandbox
	seen Launch
}

func (s *echoingSandbox) CommandLine(l Launch) string {
	s.seen = l
	return "engine run --memory " + strconv.FormatInt(l.MemoryBytes, 10) + " on port " + strconv.Itoa(l.Port)
}

// The trial's echo is the sandbox's own when it has one (CommandLiner),
// given the launch it then starts: the same limits and port.
func TestFakeSandboxEchoesItsOwnCommandLine(t *testing.T) {
	f := newFakes(t, func(*fakeProcess) *record.Report { return &record.Report{Requests: 10, Success: 1} })
	sb := &echoingSandbox{fakeSandbox: f.sb}
	f.deps.Sandbox = sb
	var progress strings.Builder
	f.deps.Progress = &progress
	if _, err := Run(context.Background(), f.spec, f.app, f.deps); err != nil {
		t.Fatal(err)
	}
	started := f.sb.launch
	if !strings.Contains(progress.String(), "jvm default: engine run --memory 67108864 on port "+strconv.Itoa(started.Port)) {
		t.Errorf("the echo is not the sandbox's:\n%s", progress.String())
	}
	if sb.seen.Port == 0 || sb.seen.Port != started.Port || sb.seen.MemoryBytes != started.MemoryBytes || sb.seen.Name != started.Name {
		t.Errorf("echoed %+v, started %+v: want the same launch", sb.seen, started)
	}
}
