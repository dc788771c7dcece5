//go:build linux

package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// The timer is set early by the loop's recent wake-up lateness, at most a
// tenth of the wait and maxMargin, and learns that lateness only from
// expiries seen after a wait.
func TestTimerMargin(t *testing.T) {
	tm, err := newTimer()
	if err != nil {
		t.Fatal(err)
	}
	defer tm.close()
	now := monoNow()
	if wait, err := tm.keep(now.Add(5*time.Millisecond), now); !wait || err != nil || !tm.wakeAt.Equal(tm.due) {
		t.Fatalf("untrained timer: wait %v err %v, wakes %v before due; want on time", wait, err, tm.due.Sub(tm.wakeAt))
	}
	for range 100 {
		tm.expired(tm.wakeAt.Add(40 * time.Microsecond))
	}
	if tm.late < 39*time.Microsecond || tm.late > 40*time.Microsecond {
		t.Fatalf("learnt lateness %v, want 40µs", tm.late)
	}
	tm.expired(tm.wakeAt.Add(-time.Millisecond)) // an older arming's expiry
	if tm.late < 39*time.Microsecond {
		t.Errorf("an expiry seen before wakeAt changed the lateness to %v", tm.late)
	}
	tm.late = 40 * time.Microsecond
	cases := []struct{ wait, margin time.Duration }{
		{5 * time.Millisecond, 40 * time.Microsecond},
		{100 * time.Microsecond, 10 * time.Microsecond}, // a tenth of the wait
	}
	for _, c := range cases {
		now := monoNow()
		if _, err := tm.keep(now.Add(c.wait), now); err != nil {
			t.Fatal(err)
		}
		if got := tm.due.Sub(tm.wakeAt); got != c.margin {
			t.Errorf("wait %v: margin %v, want %v", c.wait, got, c.margin)
		}
	}
	now = monoNow()
	tm.keep(now.Add(time.Millisecond), now)
	if wait, _ := tm.keep(tm.due, tm.wakeAt); wait {
		t.Error("past wakeAt the loop should poll without waiting")
	}
	tm.late = time.Second
	now = monoNow()
	tm.keep(now.Add(time.Minute), now)
	if got := tm.due.Sub(tm.wakeAt); got != maxMargin {
		t.Errorf("margin %v, want the cap %v", got, maxMargin)
	}
}

// A task that sleeps wakes at its deadline: never before, and not a
// timer slack or an idle CPU's wake-up later (before the timer, the loop
// woke a median of 100 µs late on an idle 2-vCPU machine).
func TestSleepWakesOnTime(t *testing.T) {
	const sleeps, gap = 200, 2 * time.Millisecond
	var msgs []string
	for attempt := range 3 {
		var lateness []time.Duration
		early := 0
		l, err := newLoop(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		l.spawn(func(tk *task) {
			for range sleeps {
				due := monoNow().Add(gap)
				tk.sleepUntil(due)
				d := monoNow().Sub(due)
				if d < 0 {
					early++
				}
				lateness = append(lateness, d)
			}
		})
		l.run()
		l.close()
		slices.Sort(lateness)
		p50 := lateness[len(lateness)/2]
		msg := fmt.Sprintf("attempt %d: %d early, lateness p50 %v p90 %v max %v", attempt+1, early,
			p50, lateness[len(lateness)*9/10], lateness[len(lateness)-1])
		t.Log(msg)
		if early > 0 {
			t.Fatalf("%d of %d sleeps ended before their deadline", early, sleeps)
		}
		if p50 <= 20*time.Microsecond {
			return
		}
		msgs = append(msgs, msg)
	}
	t.Errorf("every attempt woke late (want p50 ≤ 20µs): %q", msgs)
}
