package cgroupv2

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// guestConfig is one boot of the guest.
type guestConfig struct {
	qemu    string // qemu-system-x86_64
	kernel  string // an uncompressed vmlinux (PVH entry) or a bzImage
	initrd  string
	memMiB  int
	cpus    int
	layouts []string
	// progress gets every console line as it comes (t.Log under -v).
	progress func(string)
	// silence, when set, kills a guest whose console says nothing for that
	// long: bootGuest then returns errGuestSilent.
	silence time.Duration
}

// errGuestSilent: the guest printed nothing for guestConfig.silence and was
// killed. Under TCG a guest now and then stops dead (no step ends, no test
// binary's own timeout fires, no kernel message: seen once in a fresh-clone
// CI run, in the first step of the first layout, where the next run passed
// every step in 3 minutes), which is the emulator's, not jvmfit's.
var errGuestSilent = errors.New("the guest's console was silent")

// guestTimes are the host's view of a boot.
type guestTimes struct {
	Booted time.Duration // qemu start to init's first line
	Total  time.Duration // qemu start to its exit
}

// bootGuest boots the guest under QEMU's TCG (KVM hangs on this kind of
// machine: never -enable-kvm), reads its console until it powers off or ctx
// ends, and returns what it said. QEMU is killed on every path: ctx's end,
// the test's end (t.Cleanup) and, through Pdeathsig, the test binary's death
// (go test's -timeout).
func bootGuest(ctx context.Context, t *testing.T, c guestConfig) (*guestRun, guestTimes, error) {
	args := []string{
		"-accel", "tcg", "-cpu", "max", "-m", fmt.Sprint(c.memMiB), "-smp", fmt.Sprint(c.cpus),
		"-nodefaults", "-no-user-config", "-display", "none", "-serial", "stdio", "-no-reboot",
		"-kernel", c.kernel, "-initrd", c.initrd,
		// quiet console (markers only), PSI on (Debian builds it off by
		// default), the TSC as clock (HPET reads trap to QEMU: slow for the
		// JVM), no speculation mitigations (emulated CPUs need none), and a
		// panic that ends QEMU at once (-no-reboot). no_timer_check: on a
		// loaded host the emulated CPU is too slow for the kernel's check
		// that the IO-APIC timer ticks, which then panics ("IO-APIC +
		// timer doesn't work!"), seen at a load average of 40.
		"-append", "console=ttyS0 quiet loglevel=1 panic=-1 psi=1 tsc=reliable clocksource=tsc mitigations=off no_timer_check " +
			tscEarly() + "jvmfit.layouts=" + strings.Join(c.layouts, ","),
	}
	cmd := exec.Command(c.qemu, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, guestTimes{}, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, guestTimes{}, fmt.Errorf("%s: %v", c.qemu, err)
	}
	kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	t.Cleanup(kill)
	stop := context.AfterFunc(ctx, kill)
	defer stop()

	g := newGuestRun()
	var times guestTimes
	var last atomic.Int64 // unix nanoseconds of the last console line
	var lastLine atomic.Value
	last.Store(time.Now().UnixNano())
	lastLine.Store("")
	var silent atomic.Bool
	if c.silence > 0 {
		done := make(chan struct{})
		defer close(done)
		go func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					if time.Since(time.Unix(0, last.Load())) > c.silence {
						silent.Store(true)
						kill()
						return
					}
				}
			}
		}()
	}
	readConsole(out, func(l string) {
		last.Store(time.Now().UnixNano())
		lastLine.Store(l)
		if strings.HasPrefix(l, "@@BOOTED") {
			times.Booted = time.Since(start)
		}
		if c.progress != nil {
			c.progress(l)
		}
		g.line(l)
	})
	err = cmd.Wait()
	times.Total = time.Since(start)
	switch {
	case silent.Load():
		return g, times, fmt.Errorf("%w for %v after %q: killed", errGuestSilent, c.silence, lastLine.Load())
	case ctx.Err() != nil:
		return g, times, fmt.Errorf("the guest was still running after %v: killed", times.Total.Round(time.Second))
	case err != nil:
		return g, times, fmt.Errorf("qemu: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return g, times, nil
}

// readConsole calls line for each line of the serial console, without the
// CR the guest's tty adds.
func readConsole(r io.Reader, line func(string)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line(strings.TrimRight(sc.Text(), "\r"))
	}
	// Drain what is left (a line past the buffer): QEMU must not block.
	_, _ = io.Copy(io.Discard, r)
}

// tscEarly is "tsc_early_khz=N " with the host's TSC frequency, which the
// TCG guest's TSC counts at: the guest's own calibration times the TSC
// against an emulated timer over a few milliseconds, and on a loaded host,
// where the vCPU thread is descheduled in between, it got the frequency
// several times too low, so that the guest's clock ran ahead of the host's
// (20 minutes of guest uptime in 4 of the host's) and every timeout inside
// fired early. The host's kernel gives it as bogomips, twice the TSC's
// MHz (loops per jiffy come from the TSC); "" if /proc/cpuinfo has none.
func tscEarly() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(k) != "bogomips" {
			continue
		}
		mips, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || mips <= 0 {
			return ""
		}
		return fmt.Sprintf("tsc_early_khz=%d ", int64(mips*500))
	}
	return ""
}
