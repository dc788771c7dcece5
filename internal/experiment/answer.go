package experiment

import (
	"context"
	"time"
)

// Answer is how a finished experiment ended: its recommendation, or why it
// has none.
type Answer struct {
	Rec    *Recommendation
	WhyNot error // set when no recommendation could be made (nothing passed)
}

// Conclude is the whole minmem experiment on s: the searches, the
// recommendation, its proof by a soak of d (0 skips it), and the answer
// stored on the experiment. When the experiment stops early (err) it has no
// answer and stays open; the searches so far are returned.
func (p MinMemPlan) Conclude(ctx context.Context, s *Session, soak time.Duration) ([]ModeResult, Answer, error) {
	res, err := p.Run(ctx, s)
	if err != nil {
		return res, Answer{}, err
	}
	rec, whyNot := Recommend(Candidates(res), s.OptionsAt)
	if rec != nil {
		rec.describe(s)
	}
	if rec != nil && soak > 0 {
		if err := p.Soak(ctx, s, rec, soak); err != nil {
			return res, Answer{}, err
		}
	}
	return res, Answer{Rec: rec, WhyNot: whyNot}, s.End(rec, res)
}

// Conclude is the whole sweep (or compare) on s: the cells, the
// recommendation, and the answer stored on the experiment. When it stops
// early (err) it has no answer and stays open; the cells so far are
// returned.
func (sw Sweep) Conclude(ctx context.Context, s *Session) ([]CellResult, Answer, error) {
	cells, err := sw.Run(ctx, s)
	if err != nil {
		return cells, Answer{}, err
	}
	rec, whyNot := Recommend(SweepCandidates(cells), s.OptionsAt)
	if rec != nil {
		rec.describe(s)
	}
	if rec != nil && sw.SoakFor > 0 {
		if err := sw.Soak(ctx, s, rec, sw.SoakFor); err != nil {
			return cells, Answer{}, err
		}
	}
	return cells, Answer{Rec: rec, WhyNot: whyNot}, s.End(rec, nil)
}
