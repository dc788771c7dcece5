package report

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/judge"
)

// kneeWords says where a sweep group breaks in one plain line, e.g. "1 CPU:
// good up to 200 req/s, breaks at 300 req/s (throughput below 95% of the
// rate from 300 req/s); best 201 req/s served."
func kneeWords(k judge.KneeResult, who string) string {
	best := ""
	if k.MaxThroughput > 0 {
		best = fmt.Sprintf("; best %s req/s served", oneDecimal(k.MaxThroughput))
	}
	if k.Rate == 0 {
		return fmt.Sprintf("%s: held at every rate tried%s.", who, best)
	}
	var why []string
	if k.Throughput > 0 {
		why = append(why, fmt.Sprintf("throughput below %.0f%% of the rate from %s req/s", judge.KneeThroughputRatio*100, num(k.Throughput)))
	}
	if k.Latency > 0 {
		p := ""
		if k.BaseP99 > 0 {
			p = " (" + ms(k.BaseP99) + ")"
		}
		why = append(why, fmt.Sprintf("p99 over %dx its lowest-rate value%s from %s req/s", judge.KneeLatencyFactor, p, num(k.Latency)))
	}
	if k.Success > 0 {
		why = append(why, fmt.Sprintf("success below %.0f%% from %s req/s", judge.KneeMinSuccess*100, num(k.Success)))
	}
	head := fmt.Sprintf("%s: breaks already at the lowest rate tried, %s req/s", who, num(k.Rate))
	if k.LastGood > 0 {
		head = fmt.Sprintf("%s: good up to %s req/s, breaks at %s req/s", who, num(k.LastGood), num(k.Rate))
	}
	return head + " (" + strings.Join(why, "; ") + ")" + best + "."
}
