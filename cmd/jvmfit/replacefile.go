package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// replaceFile puts data at path whole or not at all: written to a new
// file beside it (os.CreateTemp: a name nobody could have planted a link
// at) and renamed over it. perm is set on the file itself, so the umask
// does not decide who may read a report.
func replaceFile(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
