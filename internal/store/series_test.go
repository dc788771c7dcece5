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
