package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// An open phase reports how late its sends went out, per phase and in the
// total; a closed phase, which has no intended times, reports none.
func TestSendLatenessReported(t *testing.T) {
	open := NewRecorder([]string{"get"})
	for i := range 100 {
		// 99 sends 10-108 µs late, one 40 ms late.
		late := time.Duration(10+i) * time.Microsecond
		if i == 99 {
			late = 40 * time.Millisecond
		}
		open.Add(&Outcome{Status: 200, OK: true, RecordLatency: true, Latency: late + 200*time.Microsecond,
			Paced: true, Lateness: late, Done: time.Now()})
	}
	closed := NewRecorder([]string{"get"})
	closed.Add(&Outcome{Status: 200, OK: true, RecordLatency: true, Latency: time.Millisecond, Done: time.Now()})

	var res Result
	res.Add(&Phase{Name: "measure", Model: "open", Record: true, Rec: open, Span: time.Second, Elapsed: time.Second})
	res.Add(&Phase{Name: "closed", Model: "closed", Record: true, Rec: closed, Span: time.Second, Elapsed: time.Second})
	res.Merge()

	s := res.Phases[0].SendLateness
	if s == nil {
		t.Fatal("open phase: no send_lateness")
	}
	if s.P50 < 55*time.Microsecond || s.P50 > 65*time.Microsecond || s.Max < 39*time.Millisecond || s.P99 > 110*time.Microsecond {
		t.Errorf("open phase lateness p50 %v p99 %v max %v, want ≈60µs, ≈108µs, 40ms", s.P50, s.P99, s.Max)
	}
	if res.Phases[1].SendLateness != nil {
		t.Errorf("closed phase has send_lateness %+v", res.Phases[1].SendLateness)
	}
	if tot := res.Total.SendLateness; tot == nil || tot.Max != s.Max || tot.P50 != s.P50 {
		t.Errorf("total lateness %+v, want the open phase's", tot)
	}

	b, err := json.Marshal(res.Phases[0])
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		SendLateness map[string]int64 `json:"send_lateness"`
	}
	if err := json.Unmarshal(b, &back); err != nil || back.SendLateness["max"] < int64(39*time.Millisecond) || back.SendLateness["p99"] == 0 {
		t.Errorf("JSON send_lateness %v (%v) in %s", back.SendLateness, err, b)
	}
	if b, _ := json.Marshal(res.Phases[1]); bytes.Contains(b, []byte("send_lateness")) {
		t.Errorf("closed phase JSON has send_lateness: %s", b)
	}

	var txt bytes.Buffer
	if err := WriteText(&txt, res.Phases[0]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "Send lateness") || !strings.Contains(txt.String(), "[50, 99, max]") {
		t.Errorf("text report lacks the lateness line:\n%s", txt.String())
	}
	txt.Reset()
	WriteText(&txt, res.Phases[1])
	if strings.Contains(txt.String(), "Send lateness") {
		t.Errorf("closed phase's text has a lateness line:\n%s", txt.String())
	}
}
