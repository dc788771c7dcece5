package engine

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Plan is what the phases of one run send: the scenario's requests, each
// bound to its target, and the values its users need.
type Plan struct {
	Wires   []*scenario.Wire // by request index in the scenario
	Index   map[string]int   // request name → index
	Files   int              // vars.files, for ${file}
	Port    int              // ${port}
	Timeout time.Duration    // the scenario's per-request timeout; 0 = scenario.DefaultTimeout
	Drain   time.Duration    // wait for answers after a phase's schedule; 0 = scenario.DefaultDrain
}

func (pl *Plan) drain() time.Duration {
	if pl.Drain > 0 {
		return pl.Drain
	}
	return scenario.DefaultDrain
}

func (pl *Plan) timeout(p *scenario.Phase) time.Duration {
	switch {
	case p.Timeout > 0:
		return p.Timeout
	case pl.Timeout > 0:
		return pl.Timeout
	}
	return scenario.DefaultTimeout
}
