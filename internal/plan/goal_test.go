package plan

import (
	"strings"
	"testing"
)

// Each goal means something measurable at every limit: footprint keeps a
// tighter heap and a smaller code cache than balanced, throughput keeps
// C2 and a fixed heap (footprint and balanced were identical up to 300 MiB).
func TestGoalsDiffer(t *testing.T) {
	for m := int64(128); m <= 4096; m *= 2 {
		fp := mustPlan(t, Input{Limits: limits(m*mib, 1), JDK: jdk17, Goal: Footprint})
		bal := mustPlan(t, Input{Limits: limits(m*mib, 1), JDK: jdk17, Goal: Balanced})
		tp := mustPlan(t, Input{Limits: limits(m*mib, 1), JDK: jdk17, Goal: Throughput})
		if strings.Join(fp.Options, " ") == strings.Join(bal.Options, " ") {
			t.Errorf("%dMi: footprint and balanced plans are the same", m)
		}
		if !has(fp, "-XX:MaxHeapFreeRatio=20") || !has(bal, "-XX:MaxHeapFreeRatio=40") || has(tp, "-XX:MaxHeapFreeRatio") {
			t.Errorf("%dMi: free ratios do not follow the goal", m)
		}
		if fp.Region(RegCode).Bytes > bal.Region(RegCode).Bytes || !fp.C1Only || tp.C1Only {
			t.Errorf("%dMi: code cache %d > %d or JIT choice wrong", m, fp.Region(RegCode).Bytes, bal.Region(RegCode).Bytes)
		}
		if !has(tp, "-Xms"+strings.TrimPrefix(optionWith(tp, "-Xmx"), "-Xmx")) {
			t.Errorf("%dMi: throughput without -Xms = -Xmx: %v", m, tp.Options)
		}
	}
}

func optionWith(p *Plan, prefix string) string {
	for _, o := range p.Options {
		if strings.HasPrefix(o, prefix) {
			return o
		}
	}
	return ""
}
