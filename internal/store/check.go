package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// sqliteMagic opens every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// checkFile refuses, before SQLite touches it, a file that is not SQLite or
// that is shorter than its own header says (a copy or a disk cut short).
// A missing or empty file is a new database.
func checkFile(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot open database %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("cannot open database %s: %w", path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a directory: give a database file as --db", path)
	}
	if st.Size() == 0 {
		return nil
	}
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || !bytes.HasPrefix(h[:], []byte(sqliteMagic)) {
		return fmt.Errorf("%s is not a jvmfit database (not SQLite): give another --db path", path)
	}
	if want := headerSize(h); want > st.Size() && !hasWAL(path) {
		return fmt.Errorf("database %s is damaged: it holds %d bytes where its header says %d (cut short?); jvmfit left it as it is: restore it from a copy or give another --db path", path, st.Size(), want)
	}
	return nil
}

// headerSize is the database's size as its header gives it: page size
// times page count, or 0 when the count is not known to be current.
func headerSize(h [100]byte) int64 {
	page := int64(binary.BigEndian.Uint16(h[16:18]))
	if page == 1 {
		page = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	// The count is valid only when "version-valid-for" matches the change
	// counter (older writers did not keep it).
	if !bytes.Equal(h[92:96], h[24:28]) {
		return 0
	}
	return page * pages
}

// hasWAL: a write-ahead log beside the file may hold pages not yet copied
// back, so a short main file is then not proof of damage.
func hasWAL(path string) bool {
	st, err := os.Stat(path + "-wal")
	return err == nil && st.Size() > 0
}

// diskFull says the error came from a full disk under path: SQLite's own
// SQLITE_FULL, or an I/O error (it cannot size the shared-memory file) on a
// file system with no block left.
func diskFull(path string, err error) bool {
	s := err.Error()
	if strings.Contains(s, "disk is full") || strings.Contains(s, "(13)") {
		return true
	}
	if !strings.Contains(s, "I/O error") {
		return false
	}
	free, ok := freeSpace(filepath.Dir(path))
	return ok && free == 0
}

// damaged says the error is SQLite finding the file corrupt.
func damaged(err error) bool {
	s := err.Error()
	return strings.Contains(s, "malformed") || strings.Contains(s, "(11)") || strings.Contains(s, "corrupt")
}
