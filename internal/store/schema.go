package store

import (
	"fmt"
)

// migrations[i] brings the schema from user_version i to i+1. Append only:
// a shipped migration never changes, so old databases upgrade in place.
var migrations = []string{
	`
CREATE TABLE experiments (
	id      INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	kind    TEXT NOT NULL,            -- run | minmem | sweep | compare
	args    TEXT NOT NULL DEFAULT '{}', -- JSON
	created TEXT NOT NULL,            -- RFC 3339, UTC
	ended   TEXT
);
CREATE INDEX experiments_name ON experiments(name, id);
CREATE INDEX experiments_kind ON experiments(kind, id);

CREATE TABLE trials (
	id            INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
	key           TEXT NOT NULL,
	verdict       TEXT NOT NULL,
	kind          TEXT NOT NULL DEFAULT '',
	started_at    TEXT NOT NULL,
	ended_at      TEXT NOT NULL,
	app           TEXT NOT NULL DEFAULT '',
	memory_bytes  INTEGER NOT NULL DEFAULT 0,
	cpus          REAL NOT NULL DEFAULT 0,
	jvm           TEXT NOT NULL DEFAULT '',
	jdk_version   INTEGER NOT NULL DEFAULT 0,
	rate          REAL NOT NULL DEFAULT 0,
	start_seconds REAL NOT NULL DEFAULT 0,
	memory_peak   INTEGER NOT NULL DEFAULT 0,
	result        TEXT NOT NULL        -- the whole trial.Result as JSON, minus series and histograms
);
CREATE INDEX trials_key ON trials(key, id);
CREATE INDEX trials_experiment ON trials(experiment_id, id);
CREATE INDEX trials_cell ON trials(app, cpus, memory_bytes, jvm, jdk_version, rate);

-- One row per trial: columns named once, then rows of values (JSON).
CREATE TABLE series (
	trial_id INTEGER PRIMARY KEY REFERENCES trials(id) ON DELETE CASCADE,
	samples  INTEGER NOT NULL,
	data     TEXT NOT NULL
);

CREATE TABLE histograms (
	trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
	seq      INTEGER NOT NULL,
	phase    TEXT NOT NULL,
	name     TEXT NOT NULL,
	encoding TEXT NOT NULL,
	data     TEXT NOT NULL,
	PRIMARY KEY (trial_id, seq)
);

CREATE TABLE env (
	trial_id  INTEGER PRIMARY KEY REFERENCES trials(id) ON DELETE CASCADE,
	kernel    TEXT NOT NULL,
	cpu_model TEXT NOT NULL,
	host_cpus INTEGER NOT NULL,
	jdk       TEXT NOT NULL,
	jvmfit    TEXT NOT NULL,
	cgroup    TEXT NOT NULL
);
`,
	// 2: what an experiment concluded (its recommendation), for reports.
	`ALTER TABLE experiments ADD COLUMN summary TEXT NOT NULL DEFAULT '';`,
	// 3: each trial's role in its experiment (profile, training, search,
	// soak, repeat) and tune's candidate, outside the key; '' for trials
	// stored before.
	`ALTER TABLE trials ADD COLUMN purpose TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN candidate TEXT NOT NULL DEFAULT '';`,
}

// SchemaVersion is the user_version this build writes.
var SchemaVersion = len(migrations)

func (s *Store) migrate() error {
	var v int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("its schema (version %d) is newer than this jvmfit knows (version %d): use a newer jvmfit or another --db", v, len(migrations))
	}
	for v < len(migrations) {
		if err := s.step(); err != nil {
			return err
		}
		if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
			return err
		}
	}
	return nil
}

// step applies the next migration. It re-reads user_version inside the
// write transaction because another process may have migrated meanwhile.
func (s *Store) step() error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	if v >= len(migrations) {
		return nil
	}
	if _, err := tx.Exec(migrations[v]); err != nil {
		return fmt.Errorf("schema migration %d: %w", v+1, err)
	}
	// PRAGMA takes no bound parameters; v is our own integer.
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, v+1)); err != nil {
		return err
	}
	return tx.Commit()
}
