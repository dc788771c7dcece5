package plan

import "fmt"

// Goals: what the plan optimises for.
const (
	Footprint  = "footprint"  // smallest RSS: C1 only, tight heap ratios, compact headers
	Balanced   = "balanced"   // the default: C1 only in small containers, adaptive heap
	Throughput = "throughput" // C2, G1 on bigger heaps, fixed heap
)

// ParseGoal validates a --goal value ("" means balanced).
func ParseGoal(s string) (string, error) {
	switch s {
	case "":
		return Balanced, nil
	case Footprint, Balanced, Throughput:
		return s, nil
	}
	return "", fmt.Errorf("unknown goal %q: use footprint, balanced or throughput", s)
}
