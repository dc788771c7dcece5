//go:build linux

package trial

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The fidelity test reads one real filecache trial both ways: jvmfit's own
// figures, and the independent tools', at the same moment near the end of
// the load. The moment is made exact by stopping the JVM (SIGSTOP) while
// both are read: nothing it owns can change meanwhile. jcmd needs a running
// JVM, so NMT is read right after: jvmfit's between two of jcmd's.

// Tolerances, from issue 15's measurements.
const (
	rssTolerance  = 0.001 // RSS against /proc/PID/status VmRSS
	peakTolerance = 0.001 // cgroup peak against memory.max_usage_in_bytes
	nmtTolerance  = 0.02  // NMT total committed against jcmd
)

// capturingProber is the real prober (the local backend's) that also
// hands the test the running process and its sampler.
type capturingProber struct {
	Prober
	mu       sync.Mutex
	proc     Process
	sampling Sampling
	started  chan struct{}
}

func (c *capturingProber) Start(ctx context.Context, p Process, spec Spec) Sampling {
	s := c.Prober.Start(ctx, p, spec)
	c.mu.Lock()
	c.proc, c.sampling = p, s
	c.mu.Unlock()
	close(c.started)
	return s
}

// measureClock watches the trial's progress for the measured phase's
// elapsed time ("measure 6.5s/10s") and fires once when it passes at.
type measureClock struct {
	mu   sync.Mutex
	at   time.Duration
	fire chan struct{}
	done bool
	log  testLog
}

var measureRe = regexp.MustCompile(`measure ([0-9.]+)s/`)

func (m *measureClock) Write(b []byte) (int, error) {
	m.log.Write(b)
	if g := measureRe.FindSubmatch(b); g != nil {
		s, _ := strconv.ParseFloat(string(g[1]), 64)
		m.mu.Lock()
		if !m.done && time.Duration(s*float64(time.Second)) >= m.at {
			m.done = true
			close(m.fire)
		}
		m.mu.Unlock()
	}
	return len(b), nil
}

// reading is one moment read both ways.
type reading struct {
	jvmfit    probe.Sample
	vmRSS     int64
	maxUsage  int64
	ygc, fgc  int64
	nmtJcmd   int64
	nmtJvmfit int64
	frozenFor time.Duration
}

func TestFidelityAgainstIndependentTools(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a real filecache trial takes a minute or more")
	}
	a := filecache(t) // fails, not skips, without the jar
	a.ReadyTimeout = 150 * time.Second
	spec := lightFilecache(512 * size.MiB)
	spec.Duration, spec.NMT = 12*time.Second, true
	spec = prepared(t, a, spec)
	jcmd := probe.JcmdFor(spec.Java)
	prereq.File(t, "jcmd", jcmd, prereq.Installer)
	prereq.File(t, "jstat", filepath.Join(filepath.Dir(jcmd), "jstat"), prereq.Installer)
	d := deps(t)
	pr := &capturingProber{Prober: d.Prober, started: make(chan struct{})}
	clock := &measureClock{at: 8 * time.Second, fire: make(chan struct{}), log: testLog{t}}
	d.Prober, d.Progress = pr, clock
	var rd reading
	var rdErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-clock.fire:
		case <-time.After(4 * time.Minute):
			rdErr = fmt.Errorf("the measured phase never reached %v", clock.at)
			return
		}
		pr.mu.Lock()
		p, s := pr.proc, pr.sampling
		pr.mu.Unlock()
		rd, rdErr = readBothWays(p, s, pr.Prober, jcmd)
	}()
	r, err := Run(context.Background(), spec, a, d)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if rdErr != nil {
		t.Fatalf("fidelity reading: %v", rdErr)
	}
	checkFidelity(t, rd)
	// The sample read is the trial's own, as stored.
	found := false
	for _, x := range r.Series {
		found = found || x.At == rd.jvmfit.At && x.RSS == rd.jvmfit.RSS && x.YoungGCs == rd.jvmfit.YoungGCs
	}
	if !found {
		t.Errorf("the sample compared (at %v) is not in the trial's series", rd.jvmfit.At)
	}
	if rd.jvmfit.RSS == 0 || rd.jvmfit.YoungGCs == 0 {
		t.Errorf("the sample compared is empty: %+v", rd.jvmfit)
	}
}

// readBothWays stops the JVM, waits for jvmfit's sampler to read it
// stopped, reads /proc, the cgroup and jstat, resumes it, then reads NMT
// with jvmfit between two reads of jcmd's.
func readBothWays(p Process, s Sampling, pr Prober, jcmd string) (reading, error) {
	var rd reading
	pid := p.Pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return rd, err
	}
	t0 := time.Now()
	resumed := false
	resume := func() {
		if !resumed {
			syscall.Kill(pid, syscall.SIGCONT)
			resumed = true
		}
	}
	defer resume()
	if err := waitState(pid, 'T', 2*time.Second); err != nil {
		return rd, err
	}
	stoppedAt := time.Now()
	var err error
	if rd.vmRSS, err = statusKB(pid, "VmRSS"); err != nil {
		return rd, err
	}
	if rd.maxUsage, err = readInt(filepath.Join(p.(interface{ CgroupPath() string }).CgroupPath(), "memory.max_usage_in_bytes")); err != nil {
		return rd, err
	}
	if rd.ygc, rd.fgc, err = jstatGC(jcmd, pid); err != nil {
		return rd, err
	}
	// A sample taken wholly after the stop: two periods after it, to be sure.
	if wait := 2*SamplePeriod - time.Since(stoppedAt); wait > 0 {
		time.Sleep(wait)
	}
	rd.jvmfit = s.(interface{ Last() probe.Sample }).Last()
	rd.frozenFor = time.Since(t0)
	resume()
	// The JVM runs under load between these reads, and a collection may
	// resize the heap in between (the committed total once moved 11 MiB,
	// 8%, from one read to the next): jvmfit's read is bracketed by two of
	// jcmd's, and compared with the nearer one. A wrong figure misses both.
	before, err := jcmdNMTTotal(jcmd, pid)
	if err != nil {
		return rd, err
	}
	nmt, err := pr.NMT(context.Background(), jcmd, pid)
	if err != nil {
		return rd, err
	}
	rd.nmtJvmfit = nmt[probe.NMTTotal].Committed
	after, err := jcmdNMTTotal(jcmd, pid)
	if err != nil {
		return rd, err
	}
	rd.nmtJcmd = before
	if abs64(after-rd.nmtJvmfit) < abs64(before-rd.nmtJvmfit) {
		rd.nmtJcmd = after
	}
	return rd, nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func checkFidelity(t *testing.T, rd reading) {
	t.Helper()
	rows := []struct {
		what          string
		jvmfit, other int64
		tol           float64
	}{
		{"RSS vs /proc/PID/status VmRSS", rd.jvmfit.RSS, rd.vmRSS, rssTolerance},
		{"cgroup peak vs memory.max_usage_in_bytes", rd.jvmfit.CgroupPeak, rd.maxUsage, peakTolerance},
		{"young GCs vs jstat -gc YGC", rd.jvmfit.YoungGCs, rd.ygc, 0},
		{"full GCs vs jstat -gc FGC", rd.jvmfit.OldGCs, rd.fgc, 0},
		{"NMT total committed vs jcmd VM.native_memory", rd.nmtJvmfit, rd.nmtJcmd, nmtTolerance},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fidelity (JVM stopped %v for the first four)\n", rd.frozenFor.Round(time.Millisecond))
	fmt.Fprintf(&b, "| figure | jvmfit | independent | difference | tolerance |\n|---|---|---|---|---|\n")
	for _, row := range rows {
		diff := 0.0
		if row.other != 0 {
			diff = float64(row.jvmfit-row.other) / float64(row.other)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %+.3f%% | %.1f%% |\n", row.what, row.jvmfit, row.other, diff*100, row.tol*100)
		bad := row.jvmfit != row.other // counts: exact
		if row.tol > 0 {
			bad = row.other <= 0 || math.Abs(diff) > row.tol
		}
		if bad {
			t.Errorf("%s: jvmfit %d, independent %d (%+.3f%%, tolerance %.1f%%)", row.what, row.jvmfit, row.other, diff*100, row.tol*100)
		}
	}
	t.Log(b.String())
}

// waitState waits until /proc/PID/stat shows the state letter.
func waitState(pid int, state byte, limit time.Duration) error {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return err
		}
		if i := strings.LastIndexByte(string(b), ')'); i > 0 && i+2 < len(b) && b[i+2] == state {
			return nil
		}
	}
	return fmt.Errorf("process %d not in state %c within %v", pid, state, limit)
}

// statusKB reads a "Key:   N kB" line of /proc/PID/status, in bytes.
func statusKB(pid int, key string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", key, pid)
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// jstatGC runs jstat -gc (from the JDK of jcmd) and reads YGC and FGC by
// their column names.
func jstatGC(jcmd string, pid int) (ygc, fgc int64, err error) {
	jstat := filepath.Join(filepath.Dir(jcmd), "jstat")
	out, err := exec.Command(jstat, "-gc", strconv.Itoa(pid)).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("jstat -gc %d: %w", pid, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 {
		return 0, 0, fmt.Errorf("jstat -gc: %q", out)
	}
	head, vals := strings.Fields(lines[0]), strings.Fields(lines[len(lines)-1])
	col := func(name string) (int64, error) {
		for i, h := range head {
			if h == name && i < len(vals) {
				return strconv.ParseInt(vals[i], 10, 64)
			}
		}
		return 0, fmt.Errorf("jstat -gc: no %s column in %q", name, lines[0])
	}
	if ygc, err = col("YGC"); err != nil {
		return 0, 0, err
	}
	fgc, err = col("FGC")
	return ygc, fgc, err
}

var jcmdTotal = regexp.MustCompile(`Total: reserved=\d+KB, committed=(\d+)KB`)

// jcmdNMTTotal runs jcmd PID VM.native_memory summary and reads the total
// committed.
func jcmdNMTTotal(jcmd string, pid int) (int64, error) {
	out, err := exec.Command(jcmd, strconv.Itoa(pid), "VM.native_memory", "summary").Output()
	if err != nil {
		return 0, fmt.Errorf("jcmd VM.native_memory: %w", err)
	}
	m := jcmdTotal.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("jcmd VM.native_memory: no total in %q", out)
	}
	n, err := strconv.ParseInt(string(m[1]), 10, 64)
	return n << 10, err
}
