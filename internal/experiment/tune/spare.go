package tune

import "github.com/jvmfit/jvmfit/internal/plan"

// spare fills up to n slots that a round side by side leaves free while
// c's edge is searched (its own limits are fewer than the workers), with
// trials the search would run next if c's edge stopped at its lowest pass:
//   - when c is a challenger that won (won), the candidates still in line
//     at that pass less a step (edgefirst.go's challengers, picked without
//     marking them); a KO there drops them whatever c's edge turns out, a
//     pass is tried again lower if c's edge moves;
//   - the training runs those candidates need, so that no round later
//     waits on a training run alone.
//
// One at a time no slot is free and nothing here runs: the sequential
// search is unchanged. What a spare slot ran is not run again (step's
// ranOwn). Throughput tries its challengers at the first edge, not at c's,
// so it has no challengers to try ahead.
func (s *searcher) spare(c *cand, won bool, n int) []job {
	if n <= 0 || s.order == nil || c.MinOKBytes == 0 {
		return nil
	}
	pass, ok := s.trialOf(c, c.MinOKBytes)
	if !ok {
		return nil
	}
	next := s.challengers(s.order, s.tried, pass, true)
	var out []job
	if won && s.res.Goal != plan.Throughput {
		for _, j := range next {
			if len(out) == n {
				return out
			}
			if j.c == c || j.c.Training != nil && !j.c.trained {
				continue
			}
			if _, ok := s.trialOf(j.c, j.mem); !ok {
				out = append(out, j)
			}
		}
	}
	for _, j := range next {
		if len(out) == n {
			break
		}
		if j.c != c && j.c.Training != nil && !j.c.trained {
			out = append(out, job{c: j.c, mem: s.cfg.Generous, train: true})
		}
	}
	return out
}
