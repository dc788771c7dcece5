package report

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Trials stored with their roles are read by role, not guessed: a profile
// trial with options, a training run whose options write no archive, and
// two candidates at the soaked limit with the same options (which the
// options alone cannot tell apart) with the soaked candidate chosen.
func TestTuneReadsStoredRoles(t *testing.T) {
	at := time.Unix(0, 0)
	tr := func(id int64, purpose, cand string, mem int64, opts ...string) *trial.Result {
		r := &trial.Result{ID: id, Verdict: trial.OK, StartSeconds: 1, MemoryPeakBytes: mem - 8*mi, StartedAt: at, EndedAt: at.Add(10 * time.Second),
			Spec: trial.Spec{JVM: "default", MemoryBytes: mem, CPUs: 1, JVMOptions: opts, UserOptions: opts, Purpose: purpose, Candidate: cand},
			Load: &record.Report{}}
		r.Load.Latencies.P99 = time.Duration(200-mem/mi) * time.Millisecond
		return r
	}
	profile := tr(1, trial.PurposeProfile, "", 512*mi, "-XX:+UseSerialGC")
	training := tr(2, trial.PurposeTraining, "appcds", 512*mi, "-Xshare:off")
	a := tr(3, trial.PurposeSearch, "a", 96*mi, "-XX:+UseSerialGC", "-Xss256k")
	b := tr(4, trial.PurposeSearch, "b", 96*mi, "-XX:+UseSerialGC", "-Xss256k")
	soak := tr(5, trial.PurposeSoak, "a", 96*mi, "-XX:+UseSerialGC", "-Xss256k")
	soak.Spec.Launcher, soak.Spec.JVMOptions = trial.LauncherExec, nil
	ts := []*trial.Result{profile, training, a, b, soak}
	for r, want := range map[*trial.Result]tunePurpose{profile: tuneProfile, training: tuneTraining, a: tuneSearch, soak: tuneSoak} {
		if got := tunePurposeOf(r); got != want {
			t.Errorf("trial #%d (%s) read as %d, want %d", r.ID, r.Spec.Purpose, got, want)
		}
	}
	search := tuneSearchTrials(ts)
	if len(search) != 2 {
		t.Fatalf("%d search trials, want 2", len(search))
	}
	if c := tuneChosen(ts, search); c != a {
		t.Errorf("chosen %+v, want the soaked candidate's trial #3", c)
	}
	tb := TuneFrontTable(ts)
	if tb == nil || len(tb.Rows) == 0 || tb.Rows[0][2] != "a" && tb.Rows[0][2] != "b" {
		t.Fatalf("front %+v: want the candidates named", tb)
	}
	for _, row := range tb.Rows {
		if (row[0] == "#3") != (row[7] == "chosen") {
			t.Errorf("front row %v: only #3 is chosen", row)
		}
	}
}
