package store

import (
	"reflect"
	"strings"
	"testing"
)

func TestSeriesCodec(t *testing.T) {
	in := fixtureResult(3, 50).Series
	in[7].CgroupUsage = -1 // negative values survive too
	enc, err := encodeSeries(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeSeries(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatal("series changed in the round trip")
	}
	// Rows written by another build: an unknown column is skipped, a
	// missing one reads as zero, null is zero.
	old := `{"columns":["t","rss","future_field"],"rows":[[250000000,1048576,"x"],[500000000,null,3]]}`
	got, err := decodeSeries(old)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].At.Milliseconds() != 250 || got[0].RSS != 1<<20 || got[1].RSS != 0 || got[0].HeapUsed != 0 {
		t.Errorf("decoded %+v", got)
	}
	if _, err := decodeSeries(`{"columns":["t","rss"],"rows":[[1]]}`); err == nil || !strings.Contains(err.Error(), "row 0") {
		t.Errorf("short row: err = %v", err)
	}
}

// The NMT series and the working set are stored with the other samples:
// NMT on the samples that have a reading, absent (nil) on the others, and
// TrialByID gives them back with the per-category peaks of the summary.
func TestNMTSeriesStored(t *testing.T) {
	s, _ := openTemp(t)
	r := fixtureResult(1, 12)
	for k := range r.Series {
		r.Series[k].WorkingSet = int64(80+k) << 20
		r.Series[k].RSSAnon = int64(70+k) << 20
		if k%8 == 0 {
			r.Series[k].NMT = map[string]int64{"Compiler": int64(k+1) << 20, "Total": int64(100+k) << 20}
			r.Series[k].CodeCacheUsed = int64(k+2) << 20
			r.Series[k].ArchiveRSS, r.Series[k].ArchiveAnon = 12<<20, 9<<20
		}
	}
	r.Summary.NMTPeak = map[string]int64{"Compiler": 9 << 20, "Total": 108 << 20}
	r.Summary.WorkingSetPeak = 91 << 20
	r.WorkingSetPeakBytes = 91 << 20
	exp, err := s.NewExperiment("nmt", "run", nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.SaveTrial(exp, r)
	if err != nil {
		t.Fatal(err)
	}
	got, found, err := s.TrialByID(id)
	if err != nil || !found {
		t.Fatalf("TrialByID(%d): %v %v", id, found, err)
	}
	if !reflect.DeepEqual(got.Series, r.Series) {
		t.Errorf("series changed:\n%+v\n%+v", got.Series[:2], r.Series[:2])
	}
	if got.Series[1].NMT != nil || got.Series[8].NMT["Compiler"] != 9<<20 {
		t.Errorf("NMT readings: %v, %v", got.Series[1].NMT, got.Series[8].NMT)
	}
	if !reflect.DeepEqual(got.Summary.NMTPeak, r.Summary.NMTPeak) || got.WorkingSetPeakBytes != 91<<20 {
		t.Errorf("summary %+v, working set peak %d", got.Summary, got.WorkingSetPeakBytes)
	}
	if _, found, err := s.TrialByID(id + 100); found || err != nil {
		t.Errorf("a missing trial: found %v, err %v", found, err)
	}
}
