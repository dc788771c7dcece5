//go:build linux

package trial

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// An app whose port another process holds fails to start: that is the
// trial's port-in-use, not a KO on the app.
func TestTakenPortIsPortInUseNotAKO(t *testing.T) {
	needRoot(t)
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a := fixtureApp(t, "serve", 20*time.Second)
	a.Port = l.Addr().(*net.TCPAddr).Port
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != KindPortInUse || len(r.Failed) != 1 || !strings.Contains(r.Failed[0], "could not bind port") {
		t.Fatalf("%s %s %q, want %s\n%s", r.Verdict, r.Kind, r.Failed, KindPortInUse, r.OutputTail)
	}
}

func TestPortInUseReadsOnlyABindFailureBeforeReady(t *testing.T) {
	spring := "***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\nWeb server failed to start. Port 8080 was already in use."
	cases := []struct {
		name  string
		kind  Kind
		tail  string
		ready bool
		want  Kind
	}{
		{"spring boot", KindExited, spring, false, KindPortInUse},
		{"jdk", KindExited, "Exception in thread \"main\" java.net.BindException: Address already in use", false, KindPortInUse},
		{"after ready", KindSLO, spring, true, KindSLO},
		{"java oom first", KindJavaOOM, spring, false, KindJavaOOM},
		{"memory stall", KindMemoryStall, spring, false, KindMemoryStall},
		{"not ready", KindNotReady, spring, false, KindPortInUse},
		{"other exit", KindExited, "Error: Could not find or load main class", false, KindExited},
	}
	for _, c := range cases {
		r := &Result{Verdict: KO, Kind: c.kind}
		portInUse(r, c.tail, c.ready, 8080)
		if r.Kind != c.want {
			t.Errorf("%s: kind %s, want %s", c.name, r.Kind, c.want)
		}
	}
}
