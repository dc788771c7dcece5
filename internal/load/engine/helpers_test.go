//go:build linux

package engine

import (
	"context"
	"testing"
)

// onLoop runs f as the only task of a fresh loop, and checks that the loop
// left no socket open.
func onLoop(t *testing.T, f func(tk *task)) *loop {
	t.Helper()
	l, err := newLoop(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	l.spawn(f)
	l.run()
	for fd, s := range l.socks {
		if s != nil {
			t.Errorf("socket %d still open after the loop ended", fd)
		}
	}
	return l
}
