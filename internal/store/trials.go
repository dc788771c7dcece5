package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// saveTrial stores a finished trial under experiment expID in one
// transaction and returns its id. When it returns, the trial is on disk
// (synchronous=FULL), so a crash right after loses nothing. r.ID and
// r.Experiment are not read; r.Key is computed from the Spec when empty.
func (s *Store) saveTrial(expID int64, r *trial.Result) (int64, error) {
	if r == nil {
		return 0, errors.New("store: nil trial")
	}
	if r.Verdict == "" {
		return 0, errors.New("store: trial has no verdict")
	}
	key := r.Key
	if key == "" {
		key = r.Spec.Key()
	}
	resJSON, seriesJSON, err := encodeTrial(r, key)
	if err != nil {
		return 0, err
	}
	tx, err := s.db.Begin()
	if err != nil {
		return 0, fmt.Errorf("store: save trial: %w", err)
	}
	defer tx.Rollback()
	sp := r.Spec
	res, err := tx.Exec(`INSERT INTO trials(experiment_id, key, verdict, kind, started_at, ended_at,
		app, memory_bytes, cpus, jvm, jdk_version, rate, start_seconds, memory_peak, result, purpose, candidate)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		expID, key, r.Verdict, r.Kind, formatTime(r.StartedAt), formatTime(r.EndedAt),
		appName(sp), sp.MemoryBytes, sp.CPUs, sp.JVM, sp.JDKVersion, sp.Rate,
		r.StartSeconds, r.MemoryPeakBytes, resJSON, sp.Purpose, sp.Candidate)
	if err != nil {
		if strings.Contains(err.Error(), "FOREIGN KEY") {
			return 0, fmt.Errorf("store: save trial: experiment %d: %w", expID, ErrNotFound)
		}
		return 0, fmt.Errorf("store: save trial: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	if err := saveTrialParts(tx, id, r, seriesJSON); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: save trial: %w", err)
	}
	return id, nil
}

// encodeTrial gives the result column and the series. Series and
// histograms live in their own tables: the result column stays small
// enough to scan a whole sweep quickly.
func encodeTrial(r *trial.Result, key string) (result, series string, err error) {
	body := *r
	body.ID, body.Experiment, body.Key = 0, "", key
	body.Series, body.Histograms = nil, nil
	resJSON, err := json.Marshal(body)
	if err != nil {
		return "", "", fmt.Errorf("store: trial result: %w", err)
	}
	if len(r.Series) > 0 {
		if series, err = encodeSeries(r.Series); err != nil {
			return "", "", fmt.Errorf("store: trial series: %w", err)
		}
	}
	return string(resJSON), series, nil
}

// saveTrialParts writes a trial's series, histograms and environment in
// the trial's own transaction.
func saveTrialParts(tx *sql.Tx, id int64, r *trial.Result, seriesJSON string) error {
	if len(r.Series) > 0 {
		if _, err := tx.Exec(`INSERT INTO series(trial_id, samples, data) VALUES (?, ?, ?)`,
			id, len(r.Series), seriesJSON); err != nil {
			return fmt.Errorf("store: save series: %w", err)
		}
	}
	for i, h := range r.Histograms {
		if _, err := tx.Exec(`INSERT INTO histograms(trial_id, seq, phase, name, encoding, data) VALUES (?, ?, ?, ?, ?, ?)`,
			id, i, h.Phase, h.Name, h.Encoding, h.Data); err != nil {
			return fmt.Errorf("store: save histogram: %w", err)
		}
	}
	e := r.Env
	if _, err := tx.Exec(`INSERT INTO env(trial_id, kernel, cpu_model, host_cpus, jdk, jvmfit, cgroup) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, e.Kernel, e.CPUModel, e.HostCPUs, e.JDK, e.Jvmfit, e.Cgroup); err != nil {
		return fmt.Errorf("store: save env: %w", err)
	}
	return nil
}

func appName(sp trial.Spec) string {
	if sp.AppName != "" {
		return sp.AppName
	}
	return sp.App
}

// FindTrial returns the latest trial with that key that reached a verdict
// on the app (OK, or KO of any kind but "error", which is jvmfit's own
// failure and says nothing about the cell). Sweep uses it to resume.
func (s *Store) FindTrial(key string) (*trial.Result, bool, error) {
	rs, err := s.query(`WHERE t.key = ? AND (t.verdict = 'OK' OR (t.verdict = 'KO' AND t.kind <> ?))
		ORDER BY t.id DESC LIMIT 1`, false, key, trial.KindError)
	if err != nil || len(rs) == 0 {
		return nil, false, err
	}
	return rs[0], true, nil
}

// Filter selects trials. Zero fields match everything.
type Filter struct {
	ExperimentID int64
	Experiment   string        // name: trials of every experiment with that name
	Kind         string        // experiment kind: run, minmem, sweep or compare
	Verdict      trial.Verdict // OK or KO
	Key          string
	// Light leaves out series and histograms (large) when only the
	// figures are needed.
	Light bool
}

// Trials returns the matching trials in the order they were stored, each
// with Experiment set to its experiment's name.
func (s *Store) Trials(f Filter) ([]*trial.Result, error) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if f.ExperimentID != 0 {
		add("t.experiment_id = ?", f.ExperimentID)
	}
	if f.Experiment != "" {
		add("e.name = ?", f.Experiment)
	}
	if f.Kind != "" {
		add("e.kind = ?", f.Kind)
	}
	if f.Verdict != "" {
		add("t.verdict = ?", f.Verdict)
	}
	if f.Key != "" {
		add("t.key = ?", f.Key)
	}
	q := ""
	if len(where) > 0 {
		q = "WHERE " + strings.Join(where, " AND ")
	}
	return s.query(q+" ORDER BY t.id", f.Light, args...)
}

func (s *Store) query(tail string, light bool, args ...any) ([]*trial.Result, error) {
	rows, err := s.db.Query(`SELECT t.id, t.key, e.name, t.result, t.purpose, t.candidate FROM trials t
		JOIN experiments e ON e.id = t.experiment_id `+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("store: trials: %w", err)
	}
	var out []*trial.Result
	for rows.Next() {
		var id int64
		var key, exp, body, purpose, cand string
		if err := rows.Scan(&id, &key, &exp, &body, &purpose, &cand); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: trials: %w", err)
		}
		r := new(trial.Result)
		if err := json.Unmarshal([]byte(body), r); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: trial %d: %w", id, err)
		}
		r.ID, r.Key, r.Experiment = id, key, exp
		r.Spec.Purpose, r.Spec.Candidate = purpose, cand
		out = append(out, r)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("store: trials: %w", err)
	}
	if light {
		return out, nil
	}
	for _, r := range out {
		if err := s.attach(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// attach loads a trial's series and histograms.
func (s *Store) attach(r *trial.Result) error {
	var data string
	err := s.db.QueryRow(`SELECT data FROM series WHERE trial_id = ?`, r.ID).Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("store: trial %d series: %w", r.ID, err)
	default:
		if r.Series, err = decodeSeries(data); err != nil {
			return fmt.Errorf("store: trial %d: %w", r.ID, err)
		}
	}
	rows, err := s.db.Query(`SELECT phase, name, encoding, data FROM histograms WHERE trial_id = ? ORDER BY seq`, r.ID)
	if err != nil {
		return fmt.Errorf("store: trial %d histograms: %w", r.ID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var h trial.Histogram
		if err := rows.Scan(&h.Phase, &h.Name, &h.Encoding, &h.Data); err != nil {
			return fmt.Errorf("store: trial %d histograms: %w", r.ID, err)
		}
		r.Histograms = append(r.Histograms, h)
	}
	return rows.Err()
}
