package store

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// A database written before trials kept their role upgrades in place: its
// trials read back with no role, and trials stored after keep theirs,
// outside the key (two roles of one spec share a key).
func TestSchemaUpgradeKeepsTrialsAndAddsRoles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations[0], migrations[1], `PRAGMA user_version = 2`,
		`INSERT INTO experiments(name, kind, args, created) VALUES ('old', 'tune', '{}', '2025-01-01T00:00:00Z')`,
		`INSERT INTO trials(experiment_id, key, verdict, kind, started_at, ended_at, result)
			VALUES (1, 'k1', 'OK', '', '2025-01-01T00:00:00Z', '2025-01-01T00:01:00Z', '{"spec":{"jvm":"default","soak":true},"verdict":"OK"}')`} {
		if _, err := conn.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old, err := s.Trials(Filter{Experiment: "old"})
	if err != nil || len(old) != 1 || !old[0].Spec.Soak || old[0].Spec.Purpose != "" || old[0].Spec.Candidate != "" {
		t.Fatalf("the old trial read back as %+v, %v; want its spec and no role", old, err)
	}
	r := fixtureResult(0, 0)
	r.Spec.Purpose, r.Spec.Candidate = trial.PurposeSearch, "serial-c1"
	key := r.Spec.Key()
	id, err := s.SaveTrial(1, r)
	if err != nil {
		t.Fatal(err)
	}
	got, found, err := s.TrialByID(id)
	if err != nil || !found || got.Spec.Purpose != trial.PurposeSearch || got.Spec.Candidate != "serial-c1" {
		t.Fatalf("stored role %q, candidate %q (%v, %v); want search, serial-c1", got.Spec.Purpose, got.Spec.Candidate, found, err)
	}
	r.Spec.Purpose, r.Spec.Candidate = trial.PurposeSoak, ""
	if r.Spec.Key() != key {
		t.Error("the role changed the trial's key")
	}
}
