package store

import (
	"errors"
	"fmt"
	"os"
)

// createFile makes a new database file readable by its owner alone before
// SQLite opens it: SQLite would create it 0644 less the umask, and gives
// its -wal and -shm files the mode of the database file. The database
// keeps every trial's command line and environment. An existing file
// keeps the mode its owner gave it.
func createFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot create database %s: %w", path, err)
	}
	return f.Close()
}
