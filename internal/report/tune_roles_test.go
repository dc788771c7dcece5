package report

import (
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/store"
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

// A stored tune's report shows tune's own search: per candidate its
// limits and its edge, then the soaks. It has no table of limits across
// candidates, whose lowest OK would read as a second answer (a tune of
// filecache once read "Lowest OK limit: 152Mi" beside an answer of 96Mi).
func TestTuneReportShowsTheSearchNotASecondAnswer(t *testing.T) {
	at := time.Unix(0, 0)
	tr := func(id int64, purpose, cand string, mem int64, v trial.Verdict) *trial.Result {
		r := &trial.Result{ID: id, Verdict: v, StartSeconds: 1, MemoryPeakBytes: mem - 8*mi, StartedAt: at, EndedAt: at.Add(10 * time.Second),
			Spec: trial.Spec{JVM: "default", MemoryBytes: mem, CPUs: 1, UserOptions: []string{"-X" + cand}, Purpose: purpose, Candidate: cand},
			Load: &record.Report{}}
		if v != trial.OK {
			r.Kind = trial.KindOOMKilled
		}
		return r
	}
	ts := []*trial.Result{
		tr(1, trial.PurposeProfile, "", 1024*mi, trial.OK),
		tr(2, trial.PurposeSearch, "launcher", 128*mi, trial.OK),
		tr(3, trial.PurposeSearch, "launcher", 112*mi, trial.OK),
		tr(4, trial.PurposeSearch, "launcher", 104*mi, trial.KO),
		tr(5, trial.PurposeSearch, "serial-c1", 104*mi, trial.OK),
		tr(6, trial.PurposeSearch, "serial-c1", 96*mi, trial.KO),
		tr(7, trial.PurposeRepeat, "serial-c1", 104*mi, trial.OK),
		tr(8, trial.PurposeSoak, "serial-c1", 104*mi, trial.KO),
		tr(9, trial.PurposeSoak, "serial-c1", 112*mi, trial.OK),
	}
	var b strings.Builder
	if err := Markdown(&b, Input{Meta: Meta{Kind: store.KindTune, Name: "t"}, Trials: ts}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, not := range []string{"Lowest OK limit", "Memory limits:"} {
		if strings.Contains(md, not) {
			t.Errorf("the tune's report has %q:\n%s", not, md)
		}
	}
	for _, want := range []string{
		"| launcher | 3 | 128Mi OK · 112Mi OK · 104Mi KO | 112Mi |",
		"| serial-c1 | 3 | 104Mi OK · 96Mi KO · 104Mi OK, held | 104Mi |",
		"| #8 | 104Mi | serial-c1 | KO (oom-killed) |",
		"| #9 | 112Mi | serial-c1 | OK |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the tune's report lacks %q:\n%s", want, md)
		}
	}
}
