package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Experiment kinds.
const (
	KindRun     = "run"
	KindMinMem  = "minmem"
	KindSweep   = "sweep"
	KindCompare = "compare"
)

// Experiment is one invocation of run, minmem, sweep or compare.
type Experiment struct {
	ID      int64           `json:"id"`
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Args    json.RawMessage `json:"args"`
	Created time.Time       `json:"created"`
	Ended   time.Time       `json:"ended,omitzero"` // zero while running or if interrupted
	Trials  int             `json:"trials"`
	OK      int             `json:"ok"`
}

const timeFormat = time.RFC3339Nano

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeFormat)
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

// NewExperiment records the start of an experiment; args (any JSON-able
// value, typically the command's flags) are kept for the report.
func (s *Store) NewExperiment(name, kind string, args any) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, errors.New("store: experiment needs a name")
	}
	a, err := json.Marshal(args)
	if err != nil {
		return 0, fmt.Errorf("store: experiment args: %w", err)
	}
	res, err := s.db.Exec(`INSERT INTO experiments(name, kind, args, created) VALUES (?, ?, ?, ?)`,
		name, kind, string(a), formatTime(time.Now()))
	if err != nil {
		return 0, fmt.Errorf("store: new experiment: %w", err)
	}
	return res.LastInsertId()
}

// EndExperiment marks an experiment finished. One never ended was
// interrupted; its trials are still valid.
func (s *Store) EndExperiment(id int64) error {
	res, err := s.db.Exec(`UPDATE experiments SET ended = ? WHERE id = ?`, formatTime(time.Now()), id)
	if err != nil {
		return fmt.Errorf("store: end experiment %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: end experiment %d: %w", id, ErrNotFound)
	}
	return nil
}

const experimentColumns = `e.id, e.name, e.kind, e.args, e.created, COALESCE(e.ended, ''),
	(SELECT COUNT(*) FROM trials t WHERE t.experiment_id = e.id),
	(SELECT COUNT(*) FROM trials t WHERE t.experiment_id = e.id AND t.verdict = 'OK')`

func scanExperiment(row interface{ Scan(...any) error }) (Experiment, error) {
	var e Experiment
	var args, created, ended string
	if err := row.Scan(&e.ID, &e.Name, &e.Kind, &args, &created, &ended, &e.Trials, &e.OK); err != nil {
		return e, err
	}
	e.Args = json.RawMessage(args)
	e.Created = parseTime(created)
	e.Ended = parseTime(ended)
	return e, nil
}

// Experiments lists every experiment, oldest first.
func (s *Store) Experiments() ([]Experiment, error) {
	rows, err := s.db.Query(`SELECT ` + experimentColumns + ` FROM experiments e ORDER BY e.id`)
	if err != nil {
		return nil, fmt.Errorf("store: experiments: %w", err)
	}
	defer rows.Close()
	var out []Experiment
	for rows.Next() {
		e, err := scanExperiment(rows)
		if err != nil {
			return nil, fmt.Errorf("store: experiments: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// LatestExperiment is the most recent experiment of that kind ("" = any).
func (s *Store) LatestExperiment(kind string) (Experiment, bool, error) {
	row := s.db.QueryRow(`SELECT `+experimentColumns+` FROM experiments e
		WHERE ? = '' OR e.kind = ? ORDER BY e.id DESC LIMIT 1`, kind, kind)
	return oneExperiment(row)
}

// Experiment resolves a reference as the user writes it: "latest", a
// numeric id, or a name (the most recent experiment of that name).
func (s *Store) Experiment(ref string) (Experiment, error) {
	ref = strings.TrimSpace(ref)
	var e Experiment
	var ok bool
	var err error
	switch id, perr := strconv.ParseInt(ref, 10, 64); {
	case ref == "" || ref == "latest":
		e, ok, err = s.LatestExperiment("")
	case perr == nil:
		e, ok, err = oneExperiment(s.db.QueryRow(`SELECT `+experimentColumns+` FROM experiments e WHERE e.id = ?`, id))
		if err == nil && !ok {
			// A name may be all digits.
			e, ok, err = s.byName(ref)
		}
	default:
		e, ok, err = s.byName(ref)
	}
	if err != nil {
		return e, err
	}
	if !ok {
		if ref == "" || ref == "latest" {
			return e, fmt.Errorf("no experiments in %s yet: %w", s.path, ErrNotFound)
		}
		return e, fmt.Errorf("no experiment %q in %s: %w", ref, s.path, ErrNotFound)
	}
	return e, nil
}

func (s *Store) byName(name string) (Experiment, bool, error) {
	return oneExperiment(s.db.QueryRow(`SELECT `+experimentColumns+` FROM experiments e
		WHERE e.name = ? ORDER BY e.id DESC LIMIT 1`, name))
}

func oneExperiment(row *sql.Row) (Experiment, bool, error) {
	e, err := scanExperiment(row)
	if errors.Is(err, sql.ErrNoRows) {
		return e, false, nil
	}
	if err != nil {
		return e, false, fmt.Errorf("store: experiment: %w", err)
	}
	return e, true, nil
}
