package store

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "jvmfit.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestRoundTrip(t *testing.T) {
	s, path := openTemp(t)
	exp, err := s.NewExperiment("sweep-a", KindSweep, map[string]any{"cpus": []float64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	var want []*trial.Result
	for i := 0; i < 4; i++ {
		r := fixtureResult(i, 40)
		id, err := s.SaveTrial(exp, r)
		if err != nil {
			t.Fatal(err)
		}
		r.ID, r.Experiment = id, "sweep-a"
		want = append(want, r)
	}
	// A second handle, as another process would have, sees the same data.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.Trials(Filter{ExperimentID: exp})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d trials, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("trial %d differs after round trip:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	light, err := s2.Trials(Filter{Experiment: "sweep-a", Light: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(light) != 4 || light[0].Series != nil || light[0].Histograms != nil || !reflect.DeepEqual(light[0].Summary, want[0].Summary) {
		t.Errorf("light read: want figures without series/histograms, got %d trials, series %d", len(light), len(light[0].Series))
	}
	var env string
	if err := s2.db.QueryRow(`SELECT kernel||'/'||cpu_model||'/'||jdk FROM env WHERE trial_id = ?`, want[1].ID).Scan(&env); err != nil || env != "6.18.0/Test CPU/17.0.9 Eclipse" {
		t.Errorf("env row = %q, %v", env, err)
	}
}

func TestFindTrialAndFilters(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.NewExperiment("a", KindMinMem, nil)
	b, _ := s.NewExperiment("b", KindSweep, nil)
	r := fixtureResult(0, 3)
	first, err := s.SaveTrial(a, r)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := s.SaveTrial(b, r)
	// jvmfit's own failure is no verdict on the cell: never resumed from.
	broken := fixtureResult(0, 0)
	broken.Verdict, broken.Kind = trial.KO, trial.KindError
	if _, err := s.SaveTrial(b, broken); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.FindTrial(r.Key)
	if err != nil || !ok {
		t.Fatalf("FindTrial: ok=%v err=%v", ok, err)
	}
	if got.ID != second || got.Experiment != "b" || len(got.Series) != 3 {
		t.Errorf("FindTrial = id %d exp %q series %d; want the latest verdict, id %d (first was %d)", got.ID, got.Experiment, len(got.Series), second, first)
	}
	if _, ok, _ := s.FindTrial("nope"); ok {
		t.Error("FindTrial found an unknown key")
	}
	ko := fixtureResult(2, 0)
	if _, err := s.SaveTrial(a, ko); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		f    Filter
		want int
	}{
		{Filter{}, 4}, {Filter{Kind: KindSweep}, 2}, {Filter{Experiment: "a"}, 2},
		{Filter{ExperimentID: a, Verdict: trial.KO}, 1}, {Filter{Key: r.Key}, 3}, {Filter{Experiment: "zzz"}, 0},
	}
	for _, c := range cases {
		rs, err := s.Trials(c.f)
		if err != nil || len(rs) != c.want {
			t.Errorf("Trials(%+v) = %d trials, %v; want %d", c.f, len(rs), err, c.want)
		}
	}
	if _, err := s.SaveTrial(999, r); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveTrial to a missing experiment: err = %v, want ErrNotFound", err)
	}
}

func TestExperiments(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.Experiment("latest"); !errors.Is(err, ErrNotFound) {
		t.Errorf("latest on an empty db: %v", err)
	}
	a, _ := s.NewExperiment("minmem-filecache", KindMinMem, map[string]string{"jvm": "default"})
	b, _ := s.NewExperiment("sweep-1", KindSweep, nil)
	c, _ := s.NewExperiment("minmem-filecache", KindMinMem, nil)
	s.SaveTrial(a, fixtureResult(0, 0))
	s.SaveTrial(a, fixtureResult(2, 0))
	if err := s.EndExperiment(a); err != nil {
		t.Fatal(err)
	}
	if err := s.EndExperiment(42); !errors.Is(err, ErrNotFound) {
		t.Errorf("EndExperiment(42): %v", err)
	}
	list, err := s.Experiments()
	if err != nil || len(list) != 3 {
		t.Fatalf("Experiments: %d, %v", len(list), err)
	}
	if list[0].Trials != 2 || list[0].OK != 1 || list[0].Ended.IsZero() || !list[1].Ended.IsZero() || string(list[0].Args) != `{"jvm":"default"}` {
		t.Errorf("experiment a = %+v", list[0])
	}
	for ref, want := range map[string]int64{"latest": c, "": c, "minmem-filecache": c, "sweep-1": b, "1": a} {
		e, err := s.Experiment(ref)
		if err != nil || e.ID != want {
			t.Errorf("Experiment(%q) = %d, %v; want %d", ref, e.ID, err, want)
		}
	}
	if e, ok, _ := s.LatestExperiment(KindSweep); !ok || e.ID != b {
		t.Errorf("LatestExperiment(sweep) = %d", e.ID)
	}
	_, err = s.Experiment("nope")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), path) {
		t.Errorf("unknown experiment error = %v", err)
	}
}

func TestOpenRejectsForeignFiles(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "notes.txt")
	os.WriteFile(junk, []byte(strings.Repeat("not sqlite at all\n", 100)), 0o644)
	if _, err := Open(junk); err == nil || !strings.Contains(err.Error(), "not a jvmfit database") {
		t.Errorf("Open(text file) = %v", err)
	}
	path := filepath.Join(dir, "future.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`PRAGMA user_version = 99`)
	s.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open(newer schema) = %v", err)
	}
}

func TestReopenKeepsSchemaAndData(t *testing.T) {
	s, path := openTemp(t)
	id, _ := s.NewExperiment("x", KindRun, nil)
	s.SaveTrial(id, fixtureResult(1, 2))
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var v int
	var mode string
	s2.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	s2.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if v != SchemaVersion || mode != "wal" {
		t.Errorf("user_version %d (want %d), journal_mode %q (want wal)", v, SchemaVersion, mode)
	}
	rs, _ := s2.Trials(Filter{})
	if len(rs) != 1 || len(rs[0].Series) != 2 {
		t.Errorf("reopened db has %d trials", len(rs))
	}
}

func TestSummaryAndSelect(t *testing.T) {
	s, path := openTemp(t)
	a, _ := s.NewExperiment("demo-minmem", KindMinMem, nil)
	b, _ := s.NewExperiment("demo-sweep", KindSweep, nil)
	c, _ := s.NewExperiment("other", KindRun, nil)
	if err := s.SetSummary(a, map[string]any{"headline": "128Mi, 1 CPU"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSummary(999, "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("summary of a missing experiment: %v", err)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	e, err := s2.Experiment("demo-minmem")
	if err != nil || string(e.Summary) != `{"headline":"128Mi, 1 CPU"}` {
		t.Fatalf("summary read back %q, %v", e.Summary, err)
	}
	if e, _ := s2.Experiment("demo-sweep"); e.Summary != nil {
		t.Fatalf("an experiment with no summary reads %q", e.Summary)
	}
	ids := func(es []Experiment) []int64 {
		var out []int64
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	for _, tc := range []struct {
		refs []string
		want []int64
	}{
		{[]string{"demo"}, []int64{a, b}},
		{[]string{"other", "demo"}, []int64{c, a, b}},
		{[]string{"demo-sweep", "2", "latest"}, []int64{b, c}},
		{[]string{"demo-m"}, []int64{a}},
	} {
		got, err := s2.Select(tc.refs)
		if err != nil || !reflect.DeepEqual(ids(got), tc.want) {
			t.Errorf("Select(%q) = %v, %v; want %v", tc.refs, ids(got), err, tc.want)
		}
	}
	if _, err := s2.Select([]string{"demo", "nope"}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("Select with an unknown name: %v", err)
	}
}

// A database written before experiments had a summary upgrades in place.
func TestSchemaUpgradeFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations[0], `PRAGMA user_version = 1`,
		`INSERT INTO experiments(name, kind, args, created) VALUES ('old', 'minmem', '{}', '2025-01-01T00:00:00Z')`} {
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
	e, err := s.Experiment("old")
	if err != nil || e.Summary != nil {
		t.Fatalf("old experiment %+v, %v", e, err)
	}
	if err := s.SetSummary(e.ID, "done"); err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Experiment("old"); string(e.Summary) != `"done"` {
		t.Fatalf("summary after upgrade %q", e.Summary)
	}
}

// A run is recorded once its trial has ended: it started when its trial
// did. Other experiments start when recorded, even when they store a
// trial (reused from an earlier one) that began long before.
func TestExperimentStarted(t *testing.T) {
	s, _ := openTemp(t)
	old := fixtureResult(0, 0)
	old.StartedAt = time.Now().Add(-3 * time.Minute).UTC()
	run, _ := s.NewExperiment("run-a", KindRun, nil)
	s.SaveTrial(run, old)
	sweep, _ := s.NewExperiment("sweep-a", KindSweep, nil)
	s.SaveTrial(sweep, old)
	for id, wantTrial := range map[int64]bool{run: true, sweep: false} {
		e, err := s.Experiment(strconv.FormatInt(id, 10))
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Started.Equal(old.StartedAt); got != wantTrial || (!wantTrial && !e.Started.Equal(e.Created)) {
			t.Errorf("%s: started %v, created %v, trial started %v", e.Kind, e.Started, e.Created, old.StartedAt)
		}
	}
}
