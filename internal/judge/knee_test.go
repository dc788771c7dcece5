package judge

import (
	"testing"
	"time"
)

func TestKnee(t *testing.T) {
	ms := time.Millisecond
	ok := func(rate float64) RatePoint { return RatePoint{Rate: rate, Throughput: rate, P99: 20 * ms, Success: 1} }
	cases := []struct {
		name   string
		points []RatePoint
		want   KneeResult
	}{
		{"empty", nil, KneeResult{}},
		{"never breaks", []RatePoint{ok(300), ok(100), ok(200)},
			KneeResult{LastGood: 300, BaseP99: 20 * ms, MaxThroughput: 300}},
		{"seed 002 at 1 CPU: p99 breaks at 300, throughput at 500 (400 held), success at 600", []RatePoint{
			ok(100), ok(200),
			{Rate: 300, Throughput: 295.4, P99: 1240 * ms, Success: 1},
			{Rate: 400, Throughput: 385.3, P99: 1021 * ms, Success: 1},
			{Rate: 500, Throughput: 315.5, P99: 14 * time.Second, Success: 1},
			{Rate: 600, Throughput: 184, P99: 16 * time.Second, Success: 0.92},
		}, KneeResult{Rate: 300, LastGood: 200, Throughput: 500, Latency: 300, Success: 600, BaseP99: 20 * ms, MaxThroughput: 385.3}},
		{"only latency breaks", []RatePoint{ok(100), {Rate: 200, Throughput: 200, P99: 201 * ms, Success: 1}, ok(300)},
			KneeResult{Rate: 200, LastGood: 100, Latency: 200, BaseP99: 20 * ms, MaxThroughput: 300}},
		{"exactly 10x is not broken", []RatePoint{ok(100), {Rate: 200, Throughput: 200, P99: 200 * ms, Success: 1}},
			KneeResult{LastGood: 200, BaseP99: 20 * ms, MaxThroughput: 200}},
		{"exactly 95% and 99% are not broken", []RatePoint{ok(100), {Rate: 200, Throughput: 190, P99: 30 * ms, Success: 0.99}},
			KneeResult{LastGood: 200, BaseP99: 20 * ms, MaxThroughput: 190}},
		{"a bad repeat breaks its rate; rate 0 is ignored", []RatePoint{ok(100), ok(200), {Rate: 200, Throughput: 200, P99: 25 * ms, Success: 0.5}, {Rate: 0, Throughput: 1}},
			KneeResult{Rate: 200, LastGood: 100, Success: 200, BaseP99: 20 * ms, MaxThroughput: 200}},
		{"app down at the top rate: nothing measured", []RatePoint{ok(100), {Rate: 200}},
			KneeResult{Rate: 200, LastGood: 100, Throughput: 200, Latency: 200, Success: 200, BaseP99: 20 * ms, MaxThroughput: 100}},
		{"broken from the first rate", []RatePoint{{Rate: 100, Throughput: 50, P99: time.Second, Success: 1}, ok(200)},
			KneeResult{Rate: 100, Throughput: 100, BaseP99: time.Second, MaxThroughput: 200}},
	}
	for _, c := range cases {
		if got := Knee(c.points); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
