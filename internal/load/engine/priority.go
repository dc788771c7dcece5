//go:build linux

package engine

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// An open phase's latencies count from each request's intended time, so a
// send that goes out late, or an answer read late, adds the generator's own
// wait for a CPU to the service's latency. On a machine busier than its
// cores that wait was the whole p99 (docs/load.md, "Its own lateness"): the
// loop's thread, woken on time by its timer, waited milliseconds for the
// kernel to run it. Nice values do not help: with autogroups and cgroups the
// fair scheduler shares the CPU between groups first, and the generator's
// group (a shell session, a service) is one of many. Neither does raising the
// loop's thread alone: the Go runtime hands a goroutine between threads (a
// preemption every 10 ms, a syscall that lost its P), and each hand-off waits
// for another of the process's threads to be run.
//
// So during an open phase every thread of the process runs as SCHED_FIFO at
// the lowest real-time priority, which the kernel runs as soon as it is
// woken, ahead of every normal task. The generator sleeps between sends, so
// this takes no CPU from the service, only the order in which the CPU goes.
// Three guards keep it from starving anything:
//   - SCHED_RESET_ON_FORK: what the process starts (a JVM, jcmd) and the
//     threads the Go runtime adds start as normal tasks; the keeper raises
//     new threads of this process on its next turn.
//   - a CPU budget: when the process uses more than rtBudget of one CPU over
//     a rtEvery window (the generator cannot keep up, or something else in
//     the process is busy), every thread goes back to normal for the rest of
//     the phase, and the kernel's own real-time throttling (95% of each
//     second by default) bounds the window before that;
//   - only where the kernel allows it (root, CAP_SYS_NICE or RLIMIT_RTPRIO);
//     elsewhere nothing changes, and the phase says so (Realtime false).

// rtEvery is how often the keeper raises new threads and checks the budget.
const rtEvery = 50 * time.Millisecond

// rtBudget is the share of one CPU past which the process goes back to
// normal scheduling. The loop uses about 2% of a core at 1000 req/s and 15%
// at 4000 (bench/load.sh), so only a generator that falls behind, or other
// work in the process, comes near it.
const rtBudget = 0.5

// schedFlagResetOnFork is SCHED_FLAG_RESET_ON_FORK in sched_attr.sched_flags.
const schedFlagResetOnFork = 0x01

// rtState is the process's: phases may overlap (tests run them in
// parallel), so the first raises and the last lowers.
var rt struct {
	sync.Mutex
	users  int
	denied bool // the kernel refused once: it will refuse again
	k      *rtKeeper
}

// rtKeeper holds the process's threads at real-time priority.
type rtKeeper struct {
	mu     sync.Mutex
	raised map[int]bool // thread ids raised (and not lowered)
	over   bool         // the budget was exceeded: lowered for good
	stop   chan struct{}
	done   chan struct{}
}

// realtime raises the process for an open phase; the returned func lowers
// it again and says whether the phase ran at real-time priority throughout.
func realtime() (release func() bool) {
	rt.Lock()
	defer rt.Unlock()
	if rt.denied {
		return func() bool { return false }
	}
	if rt.k == nil {
		k, err := startKeeper()
		if err != nil {
			rt.denied = true
			return func() bool { return false }
		}
		rt.k = k
	}
	rt.users++
	k := rt.k
	return func() bool {
		rt.Lock()
		defer rt.Unlock()
		ok := k.held()
		if rt.users--; rt.users == 0 {
			k.end()
			rt.k = nil
		}
		return ok
	}
}

// startKeeper raises the calling thread first, so that a kernel that
// refuses is found before anything else changes.
func startKeeper() (*rtKeeper, error) {
	if a, err := unix.SchedGetAttr(0, 0); err != nil || a.Policy != unix.SCHED_NORMAL {
		// Already real-time or batch (chrt): the user chose; leave it.
		return nil, errors.New("not a normal task")
	}
	if err := raise(0); err != nil {
		return nil, err
	}
	k := &rtKeeper{raised: map[int]bool{unix.Gettid(): true}, stop: make(chan struct{}), done: make(chan struct{})}
	k.raiseAll()
	go k.run()
	return k, nil
}

func raise(tid int) error {
	a := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_FIFO, Priority: 1, Flags: schedFlagResetOnFork}
	return unix.SchedSetAttr(tid, &a, 0)
}

func lower(tid int) {
	a := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_NORMAL}
	unix.SchedSetAttr(tid, &a, 0) // a thread that ended meanwhile: ESRCH
}

func (k *rtKeeper) run() {
	defer close(k.done)
	tick := time.NewTicker(rtEvery)
	defer tick.Stop()
	last, lastAt := processCPU(), time.Now()
	for {
		select {
		case <-k.stop:
			return
		case <-tick.C:
		}
		cpu, at := processCPU(), time.Now()
		if float64(cpu-last) > rtBudget*float64(at.Sub(lastAt)) {
			k.lowerAll(true)
			return
		}
		last, lastAt = cpu, at
		k.raiseAll()
	}
}

// raiseAll raises the threads not raised yet (new ones start normal, by
// SCHED_RESET_ON_FORK).
func (k *rtKeeper) raiseAll() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.over {
		return
	}
	for _, tid := range threads() {
		if !k.raised[tid] && raise(tid) == nil {
			k.raised[tid] = true
		}
	}
}

func (k *rtKeeper) lowerAll(over bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.over = k.over || over
	for tid := range k.raised {
		lower(tid)
	}
	clear(k.raised)
}

// held says whether the budget held so far.
func (k *rtKeeper) held() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.over
}

func (k *rtKeeper) end() {
	close(k.stop)
	<-k.done
	k.lowerAll(false)
}

// threads lists the process's thread ids.
func threads() []int {
	f, err := os.Open("/proc/self/task")
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	tids := make([]int, 0, len(names))
	for _, n := range names {
		if tid, err := strconv.Atoi(n); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids
}

// processCPU is the process's CPU time so far (user and system).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
