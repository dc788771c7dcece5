// Package store keeps experiments and trials in an embedded SQLite database
// (pure Go driver, so the binary stays static). A trial is committed, with
// its series and histograms, in one transaction the moment it ends: a
// jvmfit killed mid-experiment leaves every completed trial readable.
package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned (wrapped) when an experiment reference matches
// nothing.
var ErrNotFound = errors.New("not found")

// Store is one open database. It is safe for concurrent use, and several
// processes may open the same file: WAL lets readers run beside the one
// writer, and the busy timeout makes writers queue instead of failing.
type Store struct {
	db   *sql.DB
	path string
}

// busyTimeoutMS bounds how long a writer waits for another process's write
// transaction; trials are small, so seconds are plenty.
const busyTimeoutMS = 15000

// Open opens (creating if needed) the database at path and brings its schema
// up to date.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	// Checked before SQLite opens it: a damaged file is refused, never
	// "repaired" or migrated.
	if err := checkFile(path); err != nil {
		return nil, err
	}
	q := url.Values{}
	// synchronous=FULL: SaveTrial promises durability when it returns, and
	// in WAL mode NORMAL may lose the last commits on power loss.
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	// BEGIN IMMEDIATE takes the write lock up front, so two writers never
	// deadlock upgrading read locks (which busy_timeout cannot resolve).
	q.Set("_txlock", "immediate")
	dsn := "file:" + escapePath(path) + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		if strings.Contains(err.Error(), "not a database") {
			return nil, fmt.Errorf("%s is not a jvmfit database (not SQLite): give another --db path", path)
		}
		if damaged(err) {
			return nil, fmt.Errorf("database %s is damaged (%v); jvmfit left it as it is: restore it from a copy or give another --db path", path, err)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// escapePath keeps '?' and '#' in file names from being read as the DSN's
// query part.
func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// Path is the file the store was opened on.
func (s *Store) Path() string { return s.path }

// Close releases the database. Committed data is already on disk.
func (s *Store) Close() error { return s.db.Close() }
