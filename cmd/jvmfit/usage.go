package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// usageError marks input the user can fix (bad flag, size, file): exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// asUsage wraps err (if any) as a usage error.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// flagErrors turns cobra's own flag-parsing errors into one-line usage errors.
func flagErrors(cmd *cobra.Command, err error) error {
	return usagef("%s (see 'jvmfit %s --help')", strings.TrimSpace(err.Error()), cmd.Name())
}
