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
	KindTune    = "tune"
)

// Experiment is one invocation of run, minmem, sweep or compare.
type Experiment struct {
	ID      int64           `json:"id"`
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Args    json.RawMessage `json:"args"`
	Created time.Time       `json:"created"`
	// Started is when the experiment began: Created, except for a run,
	// which is recorded only once its trial has ended, so it began when
	// that trial started.
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitzero"` // zero while running or if interrupted
	Trials  int       `json:"trials"`
	OK      int       `json:"ok"`
	// Summary is what the experiment concluded (SetSummary), as JSON; nil
	// when it stored none.
	Summary json.RawMessage `json:"summary,omitempty"`
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

// newExperiment records the start of an experiment; args (any JSON-able
// value, typically the command's flags) are kept for the report.
func (s *Store) newExperiment(name, kind string, args any) (int64, error) {
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

// SetSummary stores what an experiment concluded (any JSON-able value,
// typically its recommendation), so a report made later can show it.
// Setting it again replaces it.
func (s *Store) SetSummary(id int64, summary any) error {
	b, err := json.Marshal(summary)
	if err != nil {
		return fmt.Errorf("store: experiment %d summary: %w", id, err)
	}
	res, err := s.db.Exec(`UPDATE experiments SET summary = ? WHERE id = ?`, string(b), id)
	if err != nil {
		return fmt.Errorf("store: experiment %d summary: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: experiment %d summary: %w", id, ErrNotFound)
	}
	return nil
}

const experimentColumns = `e.id, e.name, e.kind, e.args, e.created, COALESCE(e.ended, ''), e.summary,
	(SELECT COUNT(*) FROM trials t WHERE t.experiment_id = e.id),
	(SELECT COUNT(*) FROM trials t WHERE t.experiment_id = e.id AND t.verdict = 'OK'),
	COALESCE((SELECT MIN(t.started_at) FROM trials t WHERE t.experiment_id = e.id), '')`

func scanExperiment(row interface{ Scan(...any) error }) (Experiment, error) {
	var e Experiment
	var args, created, ended, summary, firstTrial string
	if err := row.Scan(&e.ID, &e.Name, &e.Kind, &args, &created, &ended, &summary, &e.Trials, &e.OK, &firstTrial); err != nil {
		return e, err
	}
	if summary != "" {
		e.Summary = json.RawMessage(summary)
	}
	e.Args = json.RawMessage(args)
	e.Created = parseTime(created)
	e.Ended = parseTime(ended)
	e.Started = e.Created
	// Only a run's trial began before its record; other experiments are
	// recorded first, and the trials they reuse began long before them.
	if t := parseTime(firstTrial); e.Kind == KindRun && !t.IsZero() && t.Before(e.Created) {
		e.Started = t
	}
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

// Select resolves several references for one report, in the order given
// and without repeats. Each is what Experiment accepts ("latest", an id, a
// name); a reference that names no experiment is taken as a name prefix and
// stands for every experiment whose name starts with it, oldest first
// ("demo" for demo-minmem and demo-sweep). A reference that matches nothing
// fails with ErrNotFound.
func (s *Store) Select(refs []string) ([]Experiment, error) {
	var out []Experiment
	seen := map[int64]bool{}
	add := func(e Experiment) {
		if !seen[e.ID] {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	var all []Experiment
	for _, ref := range refs {
		e, err := s.Experiment(ref)
		if err == nil {
			add(e)
			continue
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		ref = strings.TrimSpace(ref)
		if all == nil {
			if all, err = s.Experiments(); err != nil {
				return nil, err
			}
		}
		n := 0
		for _, e := range all {
			if ref != "" && ref != "latest" && strings.HasPrefix(e.Name, ref) {
				add(e)
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("no experiment %q (nor one whose name starts with it) in %s: %w", ref, s.path, ErrNotFound)
		}
	}
	return out, nil
}
