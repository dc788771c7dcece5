//go:build !linux

package probe

import (
	"context"
	"errors"
)

// Jcmd needs Linux's attach socket; elsewhere NMT falls back on jcmd.
func Jcmd(context.Context, string, int, string) (string, error) {
	return "", errors.New("the attach socket is read on Linux only")
}

func removeStaleSocket(int) {}
