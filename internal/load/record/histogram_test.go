package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestHistogramExportAndMerge(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	for i := int64(1); i <= 1000; i++ {
		a.RecordValue(i * 1000) // 1..1000 ms
	}
	b.RecordValue(59_000_000) // one 59 s outlier
	s, err := EncodeHistogram(a)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHistogram(s)
	if err != nil {
		t.Fatal(err)
	}
	back.Merge(b)
	if back.TotalCount() != 1001 || back.Max() < 58_900_000 || back.ValueAtQuantile(50) < 499_000 || back.ValueAtQuantile(50) > 502_000 {
		t.Errorf("merged: count %d max %d p50 %d", back.TotalCount(), back.Max(), back.ValueAtQuantile(50))
	}
	var txt bytes.Buffer
	if err := WritePercentiles(&txt, a); err != nil {
		t.Fatal(err)
	}
	out := txt.String()
	if !strings.HasPrefix(out, "       Value   Percentile   TotalCount 1/(1-Percentile)") && !strings.Contains(out, "Value\tPercentile\tTotalCount\t1/(1-Percentile)") {
		t.Errorf("not the HdrHistogram format:\n%s", out)
	}
	if !strings.Contains(out, "#[Max     =     1000.447, Total count    =         1000]") {
		t.Errorf("footer missing or wrong:\n%s", out[len(out)-200:])
	}
	j, err := ToJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(j)
	var m map[string]any
	json.Unmarshal(data, &m)
	if m["unit"] != "us" || m["count"].(float64) != 1000 || len(m["percentiles"].([]any)) < 20 || m["encoding"] != HistogramEncoding {
		t.Errorf("json: %s", data[:200])
	}
	if _, err := DecodeHistogram("not a histogram"); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad histogram: %v", err)
	}
}

func TestReportText(t *testing.T) {
	tl := newTally()
	for i := 0; i < 10; i++ {
		tl.add(&Outcome{Status: 200, OK: true, RecordLatency: true, Latency: 5e6, In: 10, Out: 20})
	}
	tl.add(&Outcome{Status: 0, Err: "dial: connection refused"})
	r := tl.report(1e9, 1e9)
	r.Phase, r.Model, r.TargetRate = "measure", "open", 11
	var b bytes.Buffer
	WriteText(&b, r)
	for _, want := range []string{"measure (open, target 11/s)", "11, 11.00, 10.00", "5ms", "Success", "90.91%", "0:1  200:10", "1× dial: connection refused", "late, dropped"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
	// The byte rows say that headers are counted (vegeta counts bodies only).
	flat := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{"Bytes In (with headers) [total, mean] 100, 9.09", "Bytes Out (with headers) [total, mean] 200, 18.18"} {
		if !strings.Contains(flat, want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
}
