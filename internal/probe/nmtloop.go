package probe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultNMTEvery is how often NMT is read during a trial: often enough to
// catch the C1 compiler's few-second burst at start-up, which a single
// reading at the end misses.
const DefaultNMTEvery = 2 * time.Second

// nmtTimeout bounds one reading (both commands); a JVM that does not answer
// in that time costs a skipped reading, not a stuck trial.
const nmtTimeout = 5 * time.Second

// nmtState is the NMT reader's part of a Sampler; pending is guarded by
// the Sampler's mu, the rest belongs to the reader goroutine.
type nmtState struct {
	done     chan struct{}
	pending  *nmtReading // merged into the next sample
	noAttach bool        // the attach socket failed once: use jcmd from then on
	attached bool        // jvmfit tried the attach socket, so may have made the JVM open it
	checked  bool        // the JVM's options were read
	on       bool        // and it runs with NMT
}

// finish runs at Stop, after the loops: the forced full GC, then a last NMT
// reading (the end of a run is often its peak), for the last sample.
func (s *Sampler) finish() {
	defer func() {
		if s.nmt.attached && s.t.ProcRoot == "" {
			removeStaleSocket(s.t.Pid)
		}
	}()
	if !s.Last().HasJVM() || s.parent.Err() != nil {
		return // no JVM, or an interrupted run: nothing to wait for
	}
	if s.t.FullGCAtEnd {
		ctx, cancel := context.WithTimeout(context.Background(), 2*nmtTimeout)
		s.nmt.attached = true
		if _, err := Jcmd(ctx, s.t.ProcRoot, s.t.Pid, "GC.run"); err != nil {
			s.mu.Lock()
			s.errs["full gc"] = err
			s.mu.Unlock()
		}
		cancel()
	}
	if s.t.NMT && s.nmtOn() {
		s.readNMT(context.Background())
	}
}

// nmtOn reads once whether the JVM runs with NMT, and finds the jcmd to fall
// back on.
func (s *Sampler) nmtOn() bool {
	if !s.nmt.checked {
		s.nmt.checked, s.nmt.on = true, nmtEnabled(s.t.ProcRoot, s.t.Pid)
		if s.t.Jcmd == "" {
			exe, _ := os.Readlink(filepath.Join(procRoot(s.t.ProcRoot), strconv.Itoa(s.t.Pid), "exe"))
			s.t.Jcmd = JcmdFor(exe)
		}
	}
	return s.nmt.on
}

// nmtEnabled: the JVM's options turn NMT on (summary or detail; the last
// one wins, as in HotSpot).
func nmtEnabled(root string, pid int) bool {
	on := false
	for _, arg := range jvmArgs(root, pid) {
		if v, ok := strings.CutPrefix(arg, "-XX:NativeMemoryTracking="); ok {
			on = v == "summary" || v == "detail"
		}
	}
	return on
}

func procRoot(root string) string {
	if root == "" {
		return "/proc"
	}
	return root
}

type nmtReading struct {
	committed map[string]int64
	codeUsed  int64
}

// nmtLoop reads NMT every period once the JVM's counters are there (before
// that, the SIGQUIT that opens the attach socket would kill it). Readings
// run one at a time; ticks that fall due during a slow one are dropped.
func (s *Sampler) nmtLoop(ctx context.Context, every time.Duration) {
	defer close(s.nmt.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !s.Last().HasJVM() {
			continue
		}
		if !s.nmtOn() {
			return
		}
		s.readNMT(ctx)
		select {
		case <-tick.C:
		default:
		}
	}
}

// readNMT takes one reading and leaves it for the next sample.
func (s *Sampler) readNMT(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, nmtTimeout)
	defer cancel()
	r, err := s.nmtOnce(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.errs["nmt"] = err
		return
	}
	s.nmt.pending = r
}

func (s *Sampler) nmtOnce(ctx context.Context) (*nmtReading, error) {
	var cats map[string]NMTCategory
	var err error
	if !s.nmt.noAttach {
		var text string
		s.nmt.attached = true
		if text, err = Jcmd(ctx, s.t.ProcRoot, s.t.Pid, "VM.native_memory summary"); err == nil {
			cats, err = ParseNMT(text)
		} else {
			// No socket in nmtTimeout (-XX:+DisableAttachMechanism, where
			// each SIGQUIT prints a thread dump instead) or a refusal: no
			// more signals; jcmd from now on.
			s.nmt.noAttach = true
		}
	}
	if s.nmt.noAttach {
		if s.t.Jcmd == "" {
			s.nmt.on = false
			return nil, fmt.Errorf("no jcmd to fall back on: %w", err)
		}
		if cats, err = NMT(ctx, s.t.Jcmd, s.t.Pid); err != nil && ctx.Err() == nil {
			// Neither way works (another user's JVM, say): stop asking
			// rather than start a jcmd JVM every few seconds.
			s.nmt.on = false
		}
	}
	if err != nil {
		return nil, err
	}
	r := &nmtReading{committed: make(map[string]int64, len(cats))}
	for k, v := range cats {
		r.committed[k] = v.Committed
	}
	if !s.nmt.noAttach {
		if text, err := Jcmd(ctx, s.t.ProcRoot, s.t.Pid, "Compiler.codecache"); err == nil {
			r.codeUsed, _ = ParseCodeCache(text)
		}
	}
	return r, nil
}
