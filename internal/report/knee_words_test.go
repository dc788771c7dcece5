package report

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// sweep --json carries each group's knee with the sentence the tables print.
func TestKneesCarryTheirSentence(t *testing.T) {
	var ts []*trial.Result
	for i, rate := range []float64{100, 200, 400} {
		thr := rate
		if rate == 400 {
			thr = 250 // breaks at 400
		}
		ts = append(ts, &trial.Result{ID: int64(i + 1), Spec: trial.Spec{AppName: "a", CPUs: 1, Rate: rate},
			Verdict: trial.OK, Load: &record.Report{Rate: rate, Throughput: thr, Success: 1}})
	}
	ks := Knees(ts)
	if len(ks) != 1 {
		t.Fatalf("knees %v", ks)
	}
	for label, k := range ks {
		if k.Rate != 400 || k.Text != kneeWords(k, label) || !strings.Contains(k.Text, "breaks at 400 req/s") {
			t.Errorf("%s: rate %v text %q", label, k.Rate, k.Text)
		}
	}
}
