//go:build !linux

package engine

import (
	"context"
	"errors"
	"io"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// RunPhase needs epoll: elsewhere the load generator refuses to run, with
// one clear line, rather than fail to compile.
func RunPhase(context.Context, *Plan, *scenario.Phase, io.Writer) (*record.Phase, error) {
	return nil, errors.New("the load generator runs on Linux only (it waits on epoll)")
}

// ErrorKey is err's text.
func ErrorKey(err error) string { return err.Error() }
