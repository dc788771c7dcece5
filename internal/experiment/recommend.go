package experiment

import (
	"fmt"
	"strconv"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Margin rules for the recommended limit. The search only brackets the edge
// to one grid step, and a trial lasts about a minute while a service runs for
// days: the JIT keeps filling the code cache, metaspace and thread counts
// follow traffic, and page cache from logs is charged to the container. So
// the limit is the minimum OK plus the largest of
//   - marginFloor (16 MiB, two default grid steps: the search precision),
//   - marginShare of the minimum OK (10%, for slow growth after the trial),
//   - the noise band the search measured: when a limit both passed and
//     failed, the edge moved that far between runs, and may again;
//
// and then rounded up to a multiple of marginRound so the number is one a
// person would write in a manifest.
const (
	marginFloor = 16 * size.MiB
	marginShare = 0.10
	marginRound = 16 * size.MiB
)

// Margin returns the margin over minOK and the rule that set it, in plain
// words. precision is the search's bracket (MinOK-MaxKO); noiseBand is the
// width of the range in which verdicts disagreed (0 if none). The rule
// gives the least margin; the margin itself is what rounding the limit up
// to 16 MiB makes of it, so the words name the rule, not a second size.
func Margin(minOK, precision, noiseBand int64) (int64, string) {
	share := int64(float64(minOK) * marginShare)
	m, why := marginFloor, "at least 16 MiB, two default grid steps, at least the search's precision"
	if precision > m {
		m, why = precision, fmt.Sprintf("at least %s, the search's precision (the edge lies somewhere in it)", size.Format(precision))
	}
	if share > m {
		m, why = share, "at least 10% of the minimum, for growth after a one-minute trial (code cache, metaspace, threads, page cache)"
	}
	if noiseBand > m {
		m, why = noiseBand, fmt.Sprintf("at least %s, the band in which repeated trials disagreed", size.Format(noiseBand))
	}
	limit := (minOK + m + marginRound - 1) / marginRound * marginRound
	return limit - minOK, why + "; the limit then rounded up to a multiple of 16 MiB"
}

// Recommendation is the plain answer an experiment ends with.
type Recommendation struct {
	MemoryBytes int64     `json:"memory_bytes"`
	MinOKBytes  int64     `json:"min_ok_bytes"`
	MarginBytes int64     `json:"margin_bytes"`
	MarginWhy   string    `json:"margin_why"`
	CPUs        float64   `json:"cpus"`
	JVM         string    `json:"jvm"` // the option mode that won
	Java        string    `json:"java,omitempty"`
	Options     []string  `json:"options"`        // the launcher's options at MemoryBytes
	Why         string    `json:"why"`            // how the winner was chosen
	Tested      bool      `json:"tested"`         // MemoryBytes itself ran OK (a sweep cell or a soak), else MinOK did
	Soak        []SoakRun `json:"soak,omitempty"` // minmem's proof trials at the recommended limit, in order
	// Profile is the measured profile file a jvmfit mode planned with
	// (--profile); the exec entrypoint is given it.
	Profile string `json:"profile,omitempty"`
	// ViaExec says the soak ran the app through `jvmfit exec`, as
	// recommended.
	ViaExec bool `json:"via_exec,omitempty"`
	// App and Rate are the descriptor and the request rate the answer was
	// judged at: what the command that proves it runs (ProveCommand).
	App  string  `json:"app,omitempty"`
	Rate float64 `json:"rate,omitempty"`
}

// OptionsAt gives the JVM options a mode resolves to at a limit: none for
// JDK defaults, the launcher's plan for jvmfit, a set's options for set:NAME.
type OptionsAt func(jvm, java string, memoryBytes int64, cpus float64) ([]string, error)

// Candidate is one (mode, CPUs) result an experiment can recommend.
type Candidate struct {
	JVM        string
	Java       string
	CPUs       float64
	MinOK      int64 // smallest OK limit found
	Precision  int64 // MinOK minus the highest KO limit below it
	NoiseBand  int64
	Edge       bool    // a smaller limit failed, so MinOK is at the edge and needs a margin
	Footprint  int64   // container peak at MinOK, the first tie-breaker
	Where      string  // what else held, e.g. "at 600 req/s", for the explanation
	Throughput float64 // req/s at MinOK, the second
	Rate       float64 // the rate it was judged at (a sweep's target); 0 = the session's
}

// Recommend picks the candidate with the smallest limit (then fewer CPUs,
// a smaller peak, more throughput) and dresses it as an answer. It fails when no
// candidate passed.
func Recommend(cands []Candidate, opts OptionsAt) (*Recommendation, error) {
	var best *Candidate
	passing := 0
	for i := range cands {
		c := &cands[i]
		if c.MinOK <= 0 {
			continue
		}
		passing++
		if best == nil || better(c, best) {
			best = c
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no trial passed, so there is nothing to recommend: raise the memory range or relax the SLO")
	}
	rec := &Recommendation{MinOKBytes: best.MinOK, CPUs: best.CPUs, JVM: best.JVM, Java: best.Java, MemoryBytes: best.MinOK, Tested: true,
		Rate: best.Rate}
	if best.Edge {
		rec.MarginBytes, rec.MarginWhy = Margin(best.MinOK, best.Precision, best.NoiseBand)
		rec.MemoryBytes += rec.MarginBytes
		rec.Tested = false
	} else {
		rec.MarginWhy = "no margin: this limit passed and no smaller one was tried, so it is not at the edge"
	}
	rec.Why = fmt.Sprintf("%s passed at %s with %s", best.JVM, size.Format(best.MinOK), cpuWord(best.CPUs))
	if best.Where != "" {
		rec.Why += " " + best.Where
	}
	if passing > 1 {
		rec.Why += fmt.Sprintf("; the smallest limit of the %d that passed", passing)
	}
	if opts != nil {
		o, err := opts(best.JVM, best.Java, rec.MemoryBytes, best.CPUs)
		if err != nil {
			return nil, fmt.Errorf("options for %s at %s: %w", best.JVM, size.Format(rec.MemoryBytes), err)
		}
		rec.Options = o
	}
	return rec, nil
}

func better(a, b *Candidate) bool {
	if a.MinOK != b.MinOK {
		return a.MinOK < b.MinOK
	}
	if a.CPUs != b.CPUs {
		return a.CPUs < b.CPUs
	}
	if a.Footprint != b.Footprint && a.Footprint > 0 && b.Footprint > 0 {
		return a.Footprint < b.Footprint
	}
	return a.Throughput > b.Throughput
}

func cpuWord(c float64) string {
	if c == 1 {
		return "1 CPU"
	}
	return fmtCPUs(c) + " CPUs"
}

func fmtCPUs(c float64) string { return strconv.FormatFloat(c, 'g', -1, 64) }

// Answer is the recommendation as the value every paste-ready form is
// rendered from (report.Forms).
func (r *Recommendation) Answer() judge.Answer {
	return judge.Answer{MemoryBytes: r.MemoryBytes, CPUs: r.CPUs, JVM: r.JVM, Options: r.Options, Profile: r.Profile}
}
