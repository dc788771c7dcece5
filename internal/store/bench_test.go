package store

import (
	"encoding/json"
	"testing"
)

// BenchmarkSaveTrial measures a durable save of a 5-minute trial (1200
// samples at 250 ms) and reports the stored series size against plain JSON.
func BenchmarkSaveTrial(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir + "/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	exp, _ := s.NewExperiment("bench", KindSweep, nil)
	r := fixtureResult(1, 1200)
	compact, _ := encodeSeries(r.Series)
	plain, _ := json.Marshal(r.Series)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.SaveTrial(exp, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(compact))/1024, "series-KiB")
	b.ReportMetric(float64(len(plain))/1024, "plain-json-KiB")
}

func BenchmarkTrialsRead(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir + "/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	exp, _ := s.NewExperiment("bench", KindSweep, nil)
	for i := 0; i < 40; i++ {
		s.SaveTrial(exp, fixtureResult(i, 1200))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rs, err := s.Trials(Filter{ExperimentID: exp}); err != nil || len(rs) != 40 {
			b.Fatal(err)
		}
	}
}
