package main

import "testing"

// The limit init suggests for a first run.
func TestFirstLimitIsTwiceThePeakInSteps(t *testing.T) {
	const mi = 1 << 20
	for _, c := range []struct{ peak, want int64 }{{0, 512 * mi}, {30 * mi, 128 * mi}, {70 * mi, 192 * mi}, {131 * mi, 320 * mi}} {
		if got := firstLimit(c.peak); got != c.want {
			t.Errorf("peak %d MiB: %d MiB, want %d", c.peak/mi, got/mi, c.want/mi)
		}
	}
}
