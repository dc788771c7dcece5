package scenario

import (
	"math"
	"math/rand/v2"
	"sort"
)

// User is one virtual user: it walks its phase's sequence (or draws from
// its mix), and numbers its requests for ${iter}, ${file} and ${version}.
type User struct {
	worker int
	iter   int
	pos    int
	offset int
	files  int
	port   int

	steps []int // request indices, one cycle
	mix   *mixer
	rng   *rand.Rand

	every      int // request index, -1 = none
	everyN     int64
	everyK     int
	sinceEvery int64
	pending    int
}

type mixer struct {
	cum  []float64
	reqs []int
}

// NewUsers builds the workers of a phase. index maps request names to
// their position in the scenario.
func NewUsers(p *Phase, files, port int, index map[string]int) []*User {
	var steps []int
	for _, s := range p.Steps {
		steps = append(steps, index[s])
	}
	var mx *mixer
	if len(p.Mix) > 0 {
		mx = &mixer{}
		names := make([]string, 0, len(p.Mix))
		for n := range p.Mix {
			names = append(names, n)
		}
		sort.Strings(names)
		total := 0.0
		for _, n := range names {
			total += p.Mix[n]
			mx.cum = append(mx.cum, total)
			mx.reqs = append(mx.reqs, index[n])
		}
	}
	us := make([]*User, p.Workers)
	for w := range us {
		u := &User{worker: w, files: files, port: port, steps: steps, mix: mx, every: -1}
		if files > 0 && p.FileOffset != "zero" {
			u.offset = int(int64(w) * int64(files) / int64(p.Workers))
		}
		if mx != nil {
			// Seeded per worker so that a mix is the same on every run.
			u.rng = rand.New(rand.NewPCG(0x6a766d666974, uint64(w)))
		}
		if e := p.Every; e != nil {
			u.every, u.everyN, u.everyK = index[e.Request], e.Iterations, 1
			if e.Fraction > 0 && files > 0 {
				// Together the workers touch about fraction × files files.
				u.everyK = max(1, int(math.Round(e.Fraction*float64(files)/float64(p.Workers))))
			}
		}
		us[w] = u
	}
	return us
}

// Next returns the user's next request (its index in the scenario) and
// its variables.
func (u *User) Next() (int, Vars) {
	var r int
	switch {
	case u.pending > 0:
		u.pending--
		r = u.every
	case u.mix != nil:
		x := u.rng.Float64() * u.mix.cum[len(u.mix.cum)-1]
		r = u.mix.reqs[len(u.mix.reqs)-1]
		for i, c := range u.mix.cum {
			if x < c {
				r = u.mix.reqs[i]
				break
			}
		}
		u.countEvery()
	default:
		r = u.steps[u.pos]
		u.pos++
		if u.pos == len(u.steps) {
			u.pos = 0
		}
		u.countEvery()
	}
	c := Vars{Worker: u.worker, Iter: u.iter, Port: u.port}
	if u.files > 0 {
		c.File = (u.offset + u.iter) % u.files
		c.Version = 1 + (u.iter/u.files)%10
	}
	u.iter++
	return r, c
}

func (u *User) countEvery() {
	if u.every < 0 {
		return
	}
	u.sinceEvery++
	if u.sinceEvery == u.everyN {
		u.sinceEvery = 0
		u.pending = u.everyK
	}
}
