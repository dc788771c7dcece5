//go:build !linux

package store

// freeSpace is not known off Linux; SQLite's own "disk is full" still is.
func freeSpace(string) (int64, bool) { return 0, false }
