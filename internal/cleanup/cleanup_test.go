package cleanup

import (
	"sync/atomic"
	"testing"
	"time"
)

// Now runs every registered hook, at once, and a removed one no more.
func TestNowRunsHooksAtOnce(t *testing.T) {
	var ran atomic.Int32
	slow := func() { time.Sleep(200 * time.Millisecond); ran.Add(1) }
	r1, r2 := Register(slow), Register(slow)
	gone := Register(func() { t.Error("a removed hook ran") })
	gone()
	t0 := time.Now()
	Now()
	if took := time.Since(t0); ran.Load() != 2 || took > 390*time.Millisecond {
		t.Errorf("%d hooks ran in %v; want 2, side by side", ran.Load(), took)
	}
	r1()
	r2()
}
