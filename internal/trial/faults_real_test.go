//go:build linux

package trial

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// wrappedFixture is the fixture server started through sh -c script, which
// ends with exec "$@" (the java command line).
func wrappedFixture(t *testing.T, script, mode string, readyTimeout time.Duration, javaOpts ...string) *app.App {
	t.Helper()
	return fixtureDescriptor(t, []string{"/bin/sh", "-c", script, "sh", "${java}", "${jvm_options}"}, mode, readyTimeout, javaOpts...)
}

// noOOMKill turns the OOM killer off for the app's own cgroup (v1), so that
// at its limit the kernel stalls it instead of killing it: the starvation
// a tight limit gave a Helidon and a Quarkus service, made reproducible.
const noOOMKill = `d=/sys/fs/cgroup/memory$(grep ':memory:' /proc/self/cgroup | cut -d: -f3); echo 1 > "$d/memory.oom_control" || exit 99; exec "$@"`

// A JVM starving at its limit under load, never OOM-killed, is KO
// memory-stall within seconds, not after the load's full duration; the
// JVM and its cgroup are gone after.
func TestJVMStarvedUnderLoadIsMemoryStall(t *testing.T) {
	needRoot(t)
	if _, err := os.Stat("/sys/fs/cgroup/memory/memory.oom_control"); err != nil {
		t.Skip("a cgroup v1 host only: v2 has no oom_kill_disable to make a stall with")
	}
	a := wrappedFixture(t, noOOMKill, "oom", 30*time.Second, "-XX:MaxDirectMemorySize=4g")
	spec := prepared(t, a, Spec{MemoryBytes: 128 * size.MiB, CPUs: 1, Duration: 120 * time.Second})
	r, took := timedRun(t, a, spec)
	if r.Verdict != KO || r.Kind != KindMemoryStall || !strings.Contains(r.Failed[0], "pinned at the 128Mi limit") ||
		!strings.Contains(r.Failed[0], "under_oom") {
		t.Fatalf("got %s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	if took > 60*time.Second {
		t.Errorf("took %v: the stall did not end the 120s load early", took)
	}
	if left := ownTrialGroups(t); len(left) != 0 {
		t.Errorf("trial cgroups left: %v", left)
	}
}
