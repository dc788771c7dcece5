package tune

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Training runs side by side (RunAll, as a round's do) get the same check
// as one at a time: one that passed without writing its archive is a KO.
func TestRunAllChecksTheTrainingsArchive(t *testing.T) {
	dir := t.TempDir()
	sess := &experiment.Session{Base: trial.Spec{App: "fake.yaml", AppName: "fake", SLO: "success>=0.99", Rate: 50}, Parallel: 2,
		Prepare: func(s trial.Spec) (trial.Spec, error) {
			s.Java, s.JDKVersion, s.JVMOptions = "/jdk/bin/java", 17, s.UserOptions
			return s, nil
		},
		Run: func(_ context.Context, s trial.Spec) (*trial.Result, error) {
			if f := archiveOf(s.JVMOptions); strings.Contains(f, "good") {
				os.WriteFile(f, []byte("archive"), 0o644)
			}
			return &trial.Result{Spec: s, Key: s.Key(), Verdict: trial.OK, StartedAt: time.Unix(0, 0), EndedAt: time.Unix(20, 0)}, nil
		}}
	if err := sess.Begin("tune", nil); err != nil {
		t.Fatal(err)
	}
	ts := &SessionTrials{Session: sess, Planner: func(Point) (*plan.Plan, error) { return &plan.Plan{}, nil }}
	var ps []Point
	for _, f := range []string{"good.jsa", "lost.jsa"} {
		ps = append(ps, Point{Purpose: PurposeTraining, MemoryBytes: 512 * tmib, CPUs: 1, Options: []string{"-XX:ArchiveClassesAtExit=" + filepath.Join(dir, f)}})
	}
	outs, err := ts.RunAll(context.Background(), ps)
	if err != nil || len(outs) != 2 || outs[0].Verdict != trial.OK || outs[1].Verdict != trial.KO || outs[1].Kind != KindNoArchive {
		t.Fatalf("%+v, %v: want OK, then KO %s", outs, err, KindNoArchive)
	}
}
