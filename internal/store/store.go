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
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/trial"
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

// minFreeBytes is the room Open wants on the database's disk: a trial with
// its series and histograms takes tens to hundreds of KiB.
const minFreeBytes = 1 << 20

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
	// A disk already full would let the trial run and then lose it.
	if free, ok := freeSpace(filepath.Dir(path)); ok && free < minFreeBytes {
		return nil, fmt.Errorf("cannot use database %s: the disk it is on is full (%d KiB free); free space there or give another --db path", path, free>>10)
	}
	if err := createFile(path); err != nil {
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
		if diskFull(path, err) {
			return nil, fmt.Errorf("cannot open database %s: the disk it is on is full (%v); free space there or give another --db path", path, err)
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

// NewExperiment records the start of an experiment; args (any JSON-able
// value, typically the command's flags) are kept for the report.
func (s *Store) NewExperiment(name, kind string, args any) (int64, error) {
	id, err := s.newExperiment(name, kind, args)
	return id, s.explain(err)
}

// SaveTrial stores a finished trial under experiment expID in one
// transaction (its series, histograms and env with it) and returns its id.
func (s *Store) SaveTrial(expID int64, r *trial.Result) (int64, error) {
	id, err := s.saveTrial(expID, r)
	return id, s.explain(err)
}

// explain turns a full disk into what to do about it; other errors pass.
func (s *Store) explain(err error) error {
	if err == nil || !diskFull(s.path, err) {
		return err
	}
	return fmt.Errorf("database %s: the disk it is on is full (%w); free space there or give another --db path", s.path, err)
}
