package owner

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
)

// New is a fresh owner id: 64 random bits in hex, a valid Docker and
// Kubernetes label value that no other database's run will pick.
func New() string {
	var b [8]byte
	rand.Read(b[:]) // never fails on Linux (getrandom)
	return hex.EncodeToString(b[:])
}

var idRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

// ForDB is the owner of the runs on database db: the id in the 0600 file
// db.owner, made on first use. Two runs starting at once agree on it: the
// file appears whole (a link of a written temporary file) or not at all.
func ForDB(db string) (string, error) {
	path := db + ".owner"
	if id, err := read(path); !errors.Is(err, os.ErrNotExist) {
		return id, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".owner-*") // 0600
	if err != nil {
		return "", fmt.Errorf("cannot record the run's owner beside %s: %w", db, err)
	}
	defer os.Remove(tmp.Name())
	_, err = io.WriteString(tmp, New()+"\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
			err = nil // another run made it first: its id is the owner
		}
	}
	if err != nil {
		return "", fmt.Errorf("cannot record the run's owner beside %s: %w", db, err)
	}
	return read(path)
}

// read is the owner id in path, which must be a plain file (no symlink
// lets someone else's file name the owner).
func read(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64))
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(b))
	if !idRE.MatchString(id) {
		return "", fmt.Errorf("%s holds no jvmfit owner id: remove it, and the next run makes a new one", path)
	}
	return id, nil
}
