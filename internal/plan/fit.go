package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// A launcher that is a container's entrypoint must not turn a sizing doubt
// into a crash loop. Fit is Override for `jvmfit flags` and `jvmfit exec`:
// the user's options win as Override has them, and then
//
//   - a limit the plan cannot hold (where Compute refuses) is planned
//     anyway: the heap is the user's, or the JDK's own at that limit, and
//     the regions the user left open are counted at their floors but get
//     no cap (the JDK's defaults), so that nothing stops the JVM at start;
//   - when the user's options take memory (a heap, a RAM percentage,
//     metaspace, code cache, direct memory, stacks) and leave the open
//     metaspace less than an app needs to start (metaStartNeed without a
//     profile), metaspace and direct memory get no cap instead of a cap
//     that would stop the app (-Xmx300m at 512 MiB capped metaspace at 35
//     MiB, which a Spring service outgrows at start);
//   - either is Plan.Doubt, one line with the numbers, for stderr.
//
// Strict keeps the refusal instead: Compute's, or one naming the squeeze.
// Trials plan with Fit too (internal/jvmopts), so a trial runs what exec
// would give java; Strict is their switch back to the refusal.

// metaStartNeed is the smallest metaspace cap Fit gives an app without a
// profile when the user's options take the room: about twice what the
// Spring Boot samples use (filecache 32-37 MiB, sort 33, inventory 37: the
// profiles in testdata); catalog (97 MiB) needs its profile or a cap of
// the user's.
const metaStartNeed = 64 * mib

// Fit plans around the user's options and never refuses over sizing: the
// errors left are options the JDK rejects (a malformed size) and bad input.
// It returns the plan (with Doubt set when in doubt) and the command
// line's options, the plan's then the user's.
func Fit(in Input, user []string) (*Plan, []string, error) {
	in.fit = true
	return fitPlan(in, user, false)
}

// Strict is Fit's refusal: it fails with a *RefusedError where Fit would
// doubt (jvmfit's --strict, for CI).
func Strict(in Input, user []string) (*Plan, []string, error) {
	return fitPlan(in, user, true)
}

func fitPlan(in Input, user []string, strict bool) (*Plan, []string, error) {
	p, _, err := Override(in, user)
	if err != nil {
		return nil, nil, err
	}
	all := append(append([]string{}, in.UserOptions...), user...)
	u, _ := parseUser(all) // Override has parsed them
	takes := memoryTaken(u, in)
	switch {
	case strings.Contains(p.Region(RegHeadroom).Why, fitMark): // fitAround planned it
		p.Doubt = doubt(p, takes, 0)
	case takes != "":
		c, _ := size.Parse(optionValue(p.Options, "-XX:MaxMetaspaceSize="))
		if p.Region(RegMetaspace).Source != "jvmfit" || c == 0 || c >= metaStartNeed {
			break
		}
		p.Doubt = doubt(p, takes, c)
		if strict {
			return nil, nil, &RefusedError{LimitBytes: p.LimitBytes, Why: p.Doubt + " without --strict; give a profile, or a MaxMetaspaceSize of your own"}
		}
		uncapOpen(p)
	}
	return p, append(append([]string{}, p.Options...), user...), nil
}

// fitAround is sizeHeap for a limit it refused, in Fit's mode: the heap
// the user fixes (or the JDK's own at this limit), the collector's share,
// and the open room regions at their floors with no cap.
func (s *sizing) fitAround(in Input, u userSet, n int) (string, error) {
	pr := profileOf(in)
	gc := ""
	if u.has("gc") {
		gc = u.values["gc"]
	}
	h, src, why := s.userHeap(in, u, gc)
	if h == 0 {
		h = jdkDefaultHeap(s.limit, n)
		because := "the limit is too small for a plan"
		if s.starved != "" {
			because = s.starved
		}
		src, why = "jvmfit", fmt.Sprintf("the heap the JDK itself picks at %s: %s", size.Format(s.limit), because)
	}
	s.heap = h
	s.set(RegHeap, src, why)
	if gc == "" {
		gc = chooseGC(in.Goal, n, s.heap)
	}
	s.gcOverhead = s.gcFor(gc, s.heap, pr)
	const open = "no cap (the JDK's default): the limit has " + noRoom + "; counted at its floor"
	s.metaCap, s.directCap = 0, 0
	if v, _ := u.size("MaxMetaspaceSize"); v > 0 {
		s.metaCap = s.meta
	} else {
		s.meta, s.class = metaFloor, 0
		s.set(RegMetaspace, "jvmfit", open)
	}
	if v, _ := u.size("MaxDirectMemorySize"); v > 0 {
		s.directCap = s.direct
	} else if need, own := profileDirectNeed(pr), jdkOwnDirect(s.heap); need > own {
		// No cap on direct memory is the JDK's own, about the heap: below
		// what the profile measured, it would stop the app short of what
		// it used (directbuf's Netty chunks refused at 144Mi). Raising the
		// cap to the measured need cannot fail the app sooner.
		s.direct, s.directCap = need, need
		s.set(RegDirect, "profile", fmt.Sprintf("measured %s × 1.5 + 2 MiB, above the JDK's own cap of %s at this heap, which would stop the app short of what it used",
			size.Format(pr.DirectMemoryBytes), size.Format(own)))
	} else {
		s.direct = directFloor
		s.set(RegDirect, "jvmfit", open)
	}
	if !s.measuredNative {
		s.native = s.nativeFor(s.meta)
	}
	s.shrinkCode(in, u)
	s.set(RegHeadroom, "jvmfit", s.why[RegHeadroom]+"; "+fitMark)
	return gc, nil
}

// shrinkCode gives back what the limit lacks from jvmfit's code cache cap,
// down to the JDK's own cap for C1 alone (48 MiB) with C2, or 16 MiB with
// C1 only: a full code cache stops the JIT, never the start.
func (s *sizing) shrinkCode(in Input, u userSet) {
	over := s.headroom + s.heap + s.nonHeap() - s.limit
	if over <= 0 || s.src[RegCode] != "jvmfit" || s.codeCap == 0 {
		return
	}
	floor := int64(48 * mib)
	if v, ok := u.number("TieredStopAtLevel"); s.code < floor || ok && v < 4 || in.Goal == Footprint {
		floor = min(s.code, 16*mib)
	}
	if c := max(floor, roundUp(s.code-over, mib)); c < s.code {
		s.code, s.codeCap = c, c
		s.set(RegCode, "jvmfit", s.why[RegCode]+"; shrunk to fit what your options leave (a full code cache stops the JIT, not the app)")
	}
}

const (
	noRoom  = "no room to cap it safely"
	fitMark = "the limit is too small for the plan: nothing you left open is capped"
)

// memoryTaken names the user's options that take memory from the plan
// ("" when none do).
func memoryTaken(u userSet, in Input) string {
	var out []string
	for _, k := range []string{"MaxHeapSize", "MaxRAMPercentage", "MinRAMPercentage", "MaxRAM", "InitialHeapSize", "MinHeapSize",
		"MaxMetaspaceSize", "ReservedCodeCacheSize", "MaxDirectMemorySize", "ThreadStackSize"} {
		if u.has(k) {
			out = append(out, u.keys[k])
		}
	}
	if in.MaxMemRatio > 0 {
		out = append(out, fmt.Sprintf("JAVA_MAX_MEM_RATIO=%g", in.MaxMemRatio))
	}
	return strings.Join(out, " ")
}

// doubt is the one warning line: what the heap leaves, what the rest of
// the process and the headroom take of it, and what that leaves the open
// metaspace (its planned cap when metaCap > 0). It shows the headroom as
// what is left, never below 0.
func doubt(p *Plan, takes string, metaCap int64) string {
	reserve := headroomFor(p.LimitBytes)
	if p.Region(RegAlloc).Bytes == 0 { // native measured
		reserve = measuredHeadroom(p.LimitBytes)
	}
	h := p.Region(RegHeap)
	who := "the JDK's own heap of " + size.Format(h.Bytes)
	if takes != "" {
		who = fmt.Sprintf("your %s (heap %s)", takes, size.Format(h.Bytes))
	}
	open := openRegions(p)
	metaOpen := p.Region(RegMetaspace).Source == "jvmfit"
	var rest []string
	var restBytes int64
	for _, r := range p.Regions {
		switch {
		case r.Name == RegHeap || r.Name == RegHeadroom:
		case r.Name == RegNative && metaOpen, slices.Contains(open, r.Name), r.Name == RegClass && metaOpen:
		default:
			restBytes += r.Bytes
			rest = append(rest, r.Name+" "+size.Format(r.Bytes))
		}
	}
	for i := range p.Regions {
		if p.Regions[i].Name == RegHeadroom && p.Regions[i].Bytes < 0 {
			p.Regions[i].Bytes, p.Regions[i].Why = 0, "none left: the regions exceed the limit"
		}
	}
	line := fmt.Sprintf("at %s, %s leave%s %s; the rest of the process (%s) and %s headroom",
		size.Format(p.LimitBytes), who, verbS(takes), size.Format(max(0, p.LimitBytes-h.Bytes)),
		strings.Join(rest, ", "), size.Format(reserve))
	left := p.LimitBytes - h.Bytes - restBytes - reserve
	uncapped := ""
	if len(open) > 0 {
		uncapped = strings.Join(open, " and ") + map[bool]string{true: " get", false: " gets"}[len(open) > 1] + " no cap"
	}
	switch {
	case metaCap > 0:
		return line + fmt.Sprintf(" leave metaspace a cap of %s, below the %s an app may need to start without a profile: %s",
			size.Format(metaCap), size.Format(metaStartNeed), uncapped)
	case left > 0 && uncapped != "":
		return line + fmt.Sprintf(" leave %s for %s (with the native beside them): %s", size.Format(left), strings.Join(open, " and "), uncapped)
	case left > 0:
		return line + fmt.Sprintf(" leave %s", size.Format(left))
	case uncapped == "":
		return line + fmt.Sprintf(" exceed that by %s: the process may outgrow the limit", size.Format(-left))
	}
	return line + fmt.Sprintf(" exceed that by %s: %s, and the process may outgrow the limit", size.Format(-left), uncapped)
}

// openRegions lists metaspace and direct memory where jvmfit, not the
// user or a profile, sized them: the ones Fit leaves without a cap.
func openRegions(p *Plan) []string {
	var open []string
	for _, r := range []string{RegMetaspace, RegDirect} {
		if p.Region(r).Source == "jvmfit" {
			open = append(open, r)
		}
	}
	return open
}

func verbS(takes string) string {
	if strings.Contains(takes, " ") { // "-Xmx1g -Xss1m" leave
		return ""
	}
	return "s"
}

// uncapOpen drops jvmfit's caps on metaspace and direct memory (the JDK's
// defaults then apply), keeping the regions' accounting.
func uncapOpen(p *Plan) {
	drop := map[string]bool{}
	for i, r := range p.Regions {
		if (r.Name == RegMetaspace || r.Name == RegClass || r.Name == RegDirect) && r.Source == "jvmfit" {
			drop[r.Option] = true
			p.Regions[i].Option = ""
			p.Regions[i].Why = "no cap (the JDK's default): " + r.Why
		}
	}
	var opts []string
	for _, o := range p.Options {
		if !drop[FlagKey(o)] {
			opts = append(opts, o)
		}
	}
	var reasons []Reason
	for _, r := range p.Reasons {
		if !drop[r.Name] {
			reasons = append(reasons, r)
		}
	}
	p.Options, p.Reasons = opts, reasons
}

func optionValue(opts []string, prefix string) string {
	for _, o := range opts {
		if strings.HasPrefix(o, prefix) {
			return strings.TrimPrefix(o, prefix)
		}
	}
	return ""
}
