//go:build linux

package engine

import (
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// needRealtime fails the test when the kernel refuses real-time priority.
func needRealtime(t *testing.T) {
	t.Helper()
	a := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_FIFO, Priority: 1, Flags: schedFlagResetOnFork}
	probe := exec.Command("sleep", "0")
	probe.Start()
	defer probe.Wait()
	if err := unix.SchedSetAttr(probe.Process.Pid, &a, 0); err != nil {
		prereq.Fail(t, "real-time priority (SCHED_FIFO): "+err.Error(), prereq.AsRoot+" (or with CAP_SYS_NICE)")
	}
}

// policies maps each thread of the process to its scheduling policy, the
// reset-on-fork flag included.
func policies(t *testing.T) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, tid := range threads() {
		a, err := unix.SchedGetAttr(tid, 0)
		if err != nil {
			continue // ended meanwhile
		}
		out[tid] = policyName(a)
	}
	return out
}

func policyName(a *unix.SchedAttr) string {
	name := map[uint32]string{unix.SCHED_NORMAL: "normal", unix.SCHED_FIFO: "fifo"}[a.Policy]
	if name == "" {
		name = "other"
	}
	if a.Flags&schedFlagResetOnFork != 0 {
		name += "+reset"
	}
	return name
}

func all(m map[int]string, want string) bool {
	for _, p := range m {
		if p != want {
			return false
		}
	}
	return len(m) > 0
}

// While held, every thread of the process, and threads the runtime starts
// later, runs at real-time priority; what the process starts does not; and
// releasing lowers every thread again.
func TestRealtimeRaisesTheProcessNotItsChildren(t *testing.T) {
	needRealtime(t)
	if !all(policies(t), "normal") {
		t.Fatalf("threads before: %v, want all normal", policies(t))
	}
	release := realtime()
	if got := policies(t); !all(got, "fifo+reset") {
		t.Errorf("threads while held: %v, want all fifo+reset", got)
	}
	// A child: SCHED_RESET_ON_FORK starts it as a normal task.
	child := exec.Command("sleep", "1")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	a, err := unix.SchedGetAttr(child.Process.Pid, 0)
	child.Process.Kill()
	child.Wait()
	if err != nil || a.Policy != unix.SCHED_NORMAL {
		t.Errorf("a child started while held: %v (%v), want normal", a, err)
	}
	// New threads (blocked syscalls make the runtime start more) are raised
	// on the keeper's next turn.
	before := len(threads())
	done := make(chan struct{})
	for i := 0; i < 4; i++ {
		go func() {
			var p [2]int
			unix.Pipe(p[:])
			b := make([]byte, 1)
			go func() { time.Sleep(3 * rtEvery); unix.Write(p[1], b) }()
			unix.Read(p[0], b) // a blocking read holds a thread
			unix.Close(p[0])
			unix.Close(p[1])
			done <- struct{}{}
		}()
	}
	time.Sleep(2 * rtEvery)
	if got := policies(t); len(got) <= before || !all(got, "fifo+reset") {
		t.Errorf("threads %d → %d while held: %v, want more, all fifo+reset", before, len(got), got)
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if !release() {
		t.Error("release said the budget was exceeded; nothing here was busy")
	}
	if got := policies(t); !all(got, "normal") {
		t.Errorf("threads after release: %v, want all normal", got)
	}
}

// A process that uses more than the budget (here a goroutine that spins)
// goes back to normal priority at once, and the phase says it did not run
// at real-time priority throughout.
func TestRealtimeBudgetLowersABusyProcess(t *testing.T) {
	needRealtime(t)
	release := realtime()
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && !all(policies(t), "normal") {
		time.Sleep(rtEvery / 5)
	}
	close(stop)
	if got := policies(t); !all(got, "normal") {
		t.Errorf("threads 2s into a busy spin: %v, want all normal", got)
	}
	if release() {
		t.Error("release said the budget held while a goroutine spun")
	}
}

// An open phase reports that it ran at real-time priority; a closed one
// (latency from the actual send, the loop busy by design) does not change
// priority and reports nothing.
func TestOpenPhaseReportsRealtime(t *testing.T) {
	needRealtime(t)
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	sc, err := scenario.SingleURL("GET", s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	pl := &Plan{Wires: []*scenario.Wire{scenario.NewWire(sc.Requests[0], strings.TrimPrefix(s.URL, "http://"), "")}}
	open := *sc.Phases[0]
	open.Model, open.Rate, open.Duration = scenario.Open, 200, 500*time.Millisecond
	closed := open
	closed.Model, closed.Workers, closed.Rate = scenario.Closed, 2, 0
	var res record.Result
	for _, p := range []*scenario.Phase{&open, &closed} {
		ph, err := RunPhase(context.Background(), pl, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Add(ph)
	}
	res.Merge()
	if r := res.Phases[0].Realtime; r == nil || !*r {
		t.Errorf("open phase realtime %v, want true", r)
	}
	if r := res.Phases[1].Realtime; r != nil {
		t.Errorf("closed phase realtime %v, want none", *r)
	}
	if r := res.Total.Realtime; r == nil || !*r {
		t.Errorf("total realtime %v, want true (its one open phase was)", r)
	}
	var txt strings.Builder
	if err := record.WriteText(&txt, res.Phases[0]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "(real-time priority)") {
		t.Errorf("text report does not say the priority:\n%s", txt.String())
	}
	if got := policies(t); !all(got, "normal") {
		t.Errorf("threads after the phases: %v, want all normal", got)
	}
}
