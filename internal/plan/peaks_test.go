package plan

import (
	"reflect"
	"testing"
)

// notPeaks are Profile's int64 fields that say what a profile was measured
// under, not what it measured: RaisePeaks leaves them p's.
var notPeaks = map[string]bool{"MemoryLimitBytes": true, "Trial": true}

// Every measured figure of Profile is raised, none lowered, the archive's
// pair moves together and NMT's categories are merged; a field added to
// Profile and forgotten in RaisePeaks fails here.
func TestRaisePeaksTakesEveryFieldsHigher(t *testing.T) {
	typ := reflect.TypeOf(Profile{})
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Int64 || notPeaks[f.Name] || f.Name == "CDSArchiveAnonBytes" {
			continue
		}
		for _, c := range []struct{ p, q, want int64 }{{10, 20, 20}, {20, 10, 20}, {0, 7, 7}} {
			var p, q Profile
			reflect.ValueOf(&p).Elem().Field(i).SetInt(c.p)
			reflect.ValueOf(&q).Elem().Field(i).SetInt(c.q)
			p.RaisePeaks(&q)
			if got := reflect.ValueOf(p).Field(i).Int(); got != c.want {
				t.Errorf("%s: %d raised by %d gave %d, want %d", f.Name, c.p, c.q, got, c.want)
			}
		}
	}
	p := Profile{App: "a", MemoryLimitBytes: 1 << 30, Trial: 3, CDSArchiveBytes: 10, CDSArchiveAnonBytes: 2,
		NMTPeakBytes: map[string]int64{"Class": 5, "Thread": 9}, Sources: map[string]string{"loadedClasses": SourceHsperf}}
	q := Profile{App: "b", MemoryLimitBytes: 1 << 20, Trial: 4, CDSArchiveBytes: 12, CDSArchiveAnonBytes: 1,
		NMTPeakBytes: map[string]int64{"Class": 7, "Thread": 1, "Code": 4}}
	p.RaisePeaks(&q)
	if p.CDSArchiveBytes != 12 || p.CDSArchiveAnonBytes != 1 {
		t.Errorf("archive %d (%d written), want the larger run's 12 (1 written)", p.CDSArchiveBytes, p.CDSArchiveAnonBytes)
	}
	if want := map[string]int64{"Class": 7, "Thread": 9, "Code": 4}; !reflect.DeepEqual(p.NMTPeakBytes, want) {
		t.Errorf("NMT %v, want %v", p.NMTPeakBytes, want)
	}
	if p.App != "a" || p.MemoryLimitBytes != 1<<30 || p.Trial != 3 || p.Sources["loadedClasses"] != SourceHsperf {
		t.Errorf("what p was measured under changed: %+v", p)
	}
	// A smaller archive does not replace the pair, even with more written.
	p.RaisePeaks(&Profile{CDSArchiveBytes: 11, CDSArchiveAnonBytes: 11})
	if p.CDSArchiveBytes != 12 || p.CDSArchiveAnonBytes != 1 {
		t.Errorf("a smaller archive changed the pair: %d (%d written)", p.CDSArchiveBytes, p.CDSArchiveAnonBytes)
	}
	// RaiseEach makes the map only when there is a figure.
	if RaiseEach(nil, nil) != nil {
		t.Error("RaiseEach of nothing made a map")
	}
}
