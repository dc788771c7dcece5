package judge

import (
	"sort"
	"time"
)

// RatePoint is one trial of a rate sweep at a fixed CPU count.
type RatePoint struct {
	Rate       float64       // requested req/s
	Throughput float64       // successful responses per second
	P99        time.Duration // 0 when nothing was measured
	Success    float64       // 0..1
}

// Knee thresholds (seed 002 read its breaks off charts; these make the
// reading repeatable): a rate is broken when the service no longer keeps
// up (throughput below 95% of the rate), its tail has blown up (p99 more
// than 10x the p99 at the lowest rate), or it fails requests (success
// below 99%).
const (
	KneeThroughputRatio = 0.95
	KneeLatencyFactor   = 10
	KneeMinSuccess      = 0.99
)

// KneeResult is where a sweep breaks. A zero rate means "did not break
// within the rates tried".
type KneeResult struct {
	Rate          float64       `json:"rate"`       // lowest rate at which any criterion breaks
	LastGood      float64       `json:"last_good"`  // highest rate below Rate at which all held
	Throughput    float64       `json:"throughput"` // lowest rate at which throughput < 95% of rate
	Latency       float64       `json:"latency"`    // lowest rate at which p99 > 10x the base p99
	Success       float64       `json:"success"`    // lowest rate at which success < 99%
	BaseP99       time.Duration `json:"base_p99"`
	MaxThroughput float64       `json:"max_throughput"` // best throughput seen at any rate
	Text          string        `json:"text,omitempty"` // the same in one sentence (the report words it)
}

// Knee finds the rates at which throughput, latency and success break.
// Points with no rate are ignored; repeated rates are all checked, so one
// bad repeat marks the rate broken.
func Knee(points []RatePoint) KneeResult {
	ps := make([]RatePoint, 0, len(points))
	for _, p := range points {
		if p.Rate > 0 {
			ps = append(ps, p)
		}
	}
	var k KneeResult
	if len(ps) == 0 {
		return k
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Rate < ps[j].Rate })
	for _, p := range ps {
		if p.Rate == ps[0].Rate && p.P99 > 0 && (k.BaseP99 == 0 || p.P99 < k.BaseP99) {
			k.BaseP99 = p.P99
		}
	}
	first := func(dst *float64, broke bool, r float64) {
		if broke && *dst == 0 {
			*dst = r
		}
	}
	for _, p := range ps {
		if p.Throughput > k.MaxThroughput {
			k.MaxThroughput = p.Throughput
		}
		tBad := p.Throughput < KneeThroughputRatio*p.Rate
		// A point with no latency measured at all (the app was down) is
		// broken on latency too.
		lBad := k.BaseP99 > 0 && (p.P99 == 0 || p.P99 > time.Duration(KneeLatencyFactor)*k.BaseP99)
		sBad := p.Success < KneeMinSuccess
		first(&k.Throughput, tBad, p.Rate)
		first(&k.Latency, lBad, p.Rate)
		first(&k.Success, sBad, p.Rate)
		first(&k.Rate, tBad || lBad || sBad, p.Rate)
	}
	for _, p := range ps {
		if p.Rate < k.Rate || k.Rate == 0 {
			k.LastGood = p.Rate
		}
	}
	return k
}
