package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A KO on the SLO may be a memory area at its cap that the app caught and
// went on from (directbuf's Netty refused direct chunks and answered with
// errors): minmem --json carries the trial's findings, so a search read
// from its JSON says so.
func TestMinMemJSONCarriesFindings(t *testing.T) {
	finding := "the app threw java.lang.OutOfMemoryError: Direct buffer memory and went on"
	ko := &trial.Result{ID: 7, Verdict: trial.KO, Kind: trial.KindSLO, Failed: []string{"p99 latency 516.86ms is over the 200ms limit"}, Findings: []string{finding}}
	ok := &trial.Result{ID: 8, Verdict: trial.OK}
	res := []experiment.ModeResult{{JVM: "jvmfit:footprint", CPUs: 1, Outcome: &experiment.Outcome{
		MinOK: 136 << 20, MaxKO: 128 << 20,
		Trials: []experiment.Probe{{MemoryBytes: 128 << 20, Verdict: trial.KO, Result: ko}, {MemoryBytes: 136 << 20, Verdict: trial.OK, Result: ok}}}}}
	b, err := json.Marshal(NewMinMemJSON(1, res, nil))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Modes []struct {
			Trials []map[string]json.RawMessage `json:"trials"`
		} `json:"modes"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	trials := got.Modes[0].Trials
	if f := string(trials[0]["findings"]); !strings.Contains(f, "Direct buffer memory") {
		t.Errorf("the KO trial's findings: %s, want the OutOfMemoryError it went on from", f)
	}
	if _, has := trials[1]["findings"]; has {
		t.Errorf("a trial without findings has the key: %s", b)
	}
}
