package scenario

import (
	"errors"
	"fmt"
	"strings"
)

func compilePhase(ex *expander, rp *rawPhase, i int, names []string, known map[string]bool) (*Phase, error) {
	if rp == nil {
		return nil, errors.New("empty phase")
	}
	p := &Phase{Name: rp.Name, Record: true, Model: strings.ToLower(strings.TrimSpace(rp.Model))}
	if p.Name == "" {
		p.Name = fmt.Sprintf("phase%d", i+1)
	}
	if rp.Record != nil {
		p.Record = *rp.Record
	}
	if err := phaseLimits(ex, p, rp); err != nil {
		return nil, err
	}
	if p.Model == "" {
		p.Model = Closed
		if rp.Rate != "" || rp.Ramp != nil {
			p.Model = Open
		}
	}
	if p.Workers == 0 {
		p.Workers = 1
	}
	switch strings.TrimSpace(rp.FileOffset) {
	case "", "spread":
		p.FileOffset = "spread"
	case "zero":
		p.FileOffset = "zero"
	default:
		return nil, fmt.Errorf("file_offset: %q: use spread or zero", rp.FileOffset)
	}
	if err := compileSteps(ex, p, rp, names, known); err != nil {
		return nil, err
	}
	if rp.Every != nil {
		e, err := compileEvery(ex, rp.Every, known)
		if err != nil {
			return nil, err
		}
		p.Every = e
	}
	return p, p.Validate()
}

// phaseLimits sets the phase's counts, times and rates.
func phaseLimits(ex *expander, p *Phase, rp *rawPhase) error {
	var err error
	num := func(field, s string) int64 {
		if err != nil {
			return 0
		}
		var n int64
		n, err = ex.integer(s, 0)
		if err != nil {
			err = fmt.Errorf("%s: %s", field, errText(err))
		} else if n < 0 {
			err = fmt.Errorf("%s: must not be negative, got %d", field, n)
		}
		return n
	}
	p.Workers = int(num("workers", rp.Workers))
	p.Iterations = num("iterations", rp.Iterations)
	p.Requests = num("requests", rp.Requests)
	p.MaxInflight = int(num("max_inflight", rp.MaxInflight))
	if err != nil {
		return err
	}
	if p.Duration, err = duration(ex, rp.Duration, 0); err != nil {
		return fmt.Errorf("duration: %s", errText(err))
	}
	if p.Timeout, err = duration(ex, rp.Timeout, 0); err != nil {
		return fmt.Errorf("timeout: %s", errText(err))
	}
	if p.LateAfter, err = duration(ex, rp.LateAfter, 0); err != nil {
		return fmt.Errorf("late_after: %s", errText(err))
	}
	if p.Rate, err = ex.number(rp.Rate, 0); err != nil {
		return fmt.Errorf("rate: %s", errText(err))
	}
	if rp.Ramp != nil {
		if p.RampFrom, err = ex.number(rp.Ramp.From, 0); err != nil {
			return fmt.Errorf("ramp.from: %s", errText(err))
		}
		if p.RampTo, err = ex.number(rp.Ramp.To, 0); err != nil {
			return fmt.Errorf("ramp.to: %s", errText(err))
		}
	}
	return nil
}

// compileEvery is a phase's periodic extra request.
func compileEvery(ex *expander, re *rawEvery, known map[string]bool) (*Every, error) {
	e := &Every{Request: re.Request}
	var err error
	if e.Iterations, err = ex.integer(re.Iterations, 0); err != nil || e.Iterations <= 0 {
		return nil, fmt.Errorf("every.iterations: want a whole number > 0, got %q", re.Iterations)
	}
	if !known[e.Request] {
		return nil, fmt.Errorf("every.request: %q is not a defined request", e.Request)
	}
	if e.Fraction, err = ex.number(re.Fraction, 0); err != nil || e.Fraction < 0 || e.Fraction > 1 {
		return nil, fmt.Errorf("every.fraction: want a number from 0 to 1, got %q", re.Fraction)
	}
	return e, nil
}

func compileSteps(ex *expander, p *Phase, rp *rawPhase, names []string, known map[string]bool) error {
	if len(rp.Sequence) > 0 && len(rp.Mix) > 0 {
		return errors.New("give sequence: or mix:, not both")
	}
	for j, st := range rp.Sequence {
		if !known[st.Request] {
			return fmt.Errorf("sequence[%d]: %q is not a defined request (defined: %s)", j, st.Request, strings.Join(names, ", "))
		}
		n, err := ex.integer(st.Repeat, 1)
		if err != nil || n < 1 || n > 1_000_000 {
			return fmt.Errorf("sequence[%d].repeat: want a whole number ≥ 1, got %q", j, st.Repeat)
		}
		for k := int64(0); k < n; k++ {
			p.Steps = append(p.Steps, st.Request)
		}
	}
	if len(rp.Mix) > 0 {
		p.Mix = map[string]float64{}
		for name, w := range rp.Mix {
			if !known[name] {
				return fmt.Errorf("mix.%s: not a defined request (defined: %s)", name, strings.Join(names, ", "))
			}
			f, err := ex.number(w, 0)
			if err != nil || f < 0 {
				return fmt.Errorf("mix.%s: want a weight ≥ 0, got %q", name, w)
			}
			p.Mix[name] = f
		}
	}
	if len(p.Steps) == 0 && len(p.Mix) == 0 {
		if len(names) != 1 {
			return fmt.Errorf("sequence: missing; with several requests (%s) say which to send", strings.Join(names, ", "))
		}
		p.Steps = []string{names[0]}
	}
	return nil
}

// Validate checks the limits once options have been applied.
func (p *Phase) Validate() error {
	switch p.Model {
	case Open:
		if p.RampTo > 0 || p.RampFrom > 0 {
			if p.RampFrom < 0 || p.RampTo <= 0 {
				return fmt.Errorf("ramp: from must be ≥ 0 and to > 0 (got %g → %g)", p.RampFrom, p.RampTo)
			}
			if p.Duration <= 0 {
				return errors.New("ramp: needs duration:")
			}
		} else if p.Rate <= 0 {
			return fmt.Errorf("rate: must be > 0 req/s for an open phase (got %g)", p.Rate)
		}
		if p.Duration <= 0 && p.Requests <= 0 {
			return errors.New("open phase needs duration: or requests:")
		}
	case Closed:
		if p.Duration <= 0 && p.Requests <= 0 && p.Iterations <= 0 {
			return errors.New("closed phase needs duration:, iterations: or requests:")
		}
	default:
		return fmt.Errorf("model: %q: use open or closed", p.Model)
	}
	if p.Workers < 1 {
		return fmt.Errorf("workers: must be ≥ 1 (got %d)", p.Workers)
	}
	if p.Workers > 100000 {
		return fmt.Errorf("workers: %d is too many (max 100000)", p.Workers)
	}
	return nil
}
