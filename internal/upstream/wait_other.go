//go:build !linux

package upstream

import "time"

// wait holds for d (wait_linux.go is the precise one).
func wait(d time.Duration) { time.Sleep(d) }
