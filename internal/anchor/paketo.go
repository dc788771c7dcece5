package anchor

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The Paketo memory calculator's constants (libjvm calc/ and
// helper/memory_calculator.go).
const (
	paketoClassOverhead   = 14_000_000 // metaspace bytes before any class
	paketoClassSize       = 5_800      // metaspace bytes per loaded class
	paketoClassLoadFactor = 0.35       // share of counted classes expected to load
	paketoThreads         = 250
	paketoStack           = 1 << 20
	paketoCodeCache       = 240 << 20
	paketoDirect          = 10 << 20
)

// paketoRegion is one region the calculator sizes: its option, and whether
// the user fixed it.
type paketoRegion struct {
	name   string
	flag   *regexp.Regexp
	format func(int64) string
	bytes  int64
	user   bool
}

func paketoFlag(prefix string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + `(\d+)([kmgtKMGT]?)$`)
}

// Paketo is the Paketo (Cloud Foundry) memory calculator: heap = total −
// (direct + metaspace + reserved code cache + threads × stack + headroom),
// metaspace = 14,000,000 + 5,800 × loaded classes, loaded classes = 0.35 ×
// (the JVM's classes + the app's + its agents'). The user's own sizes in
// JAVA_TOOL_OPTIONS are kept and the rest fills around them; a limit the
// regions do not fit is refused (*plan.RefusedError), as the calculator
// fails the launch.
func Paketo(in Input) (Options, error) {
	total := in.LimitBytes
	if total <= 0 {
		total = size.GiB // the calculator's fallback when it finds no limit
	}
	loaded, classWhy, err := paketoLoadedClasses(in)
	if err != nil {
		return Options{}, err
	}
	threads, err := paketoInt(in, "BPL_JVM_THREAD_COUNT", paketoThreads)
	if err != nil {
		return Options{}, err
	}
	headPct, err := paketoInt(in, "BPL_JVM_HEAD_ROOM", 0)
	if err != nil {
		return Options{}, err
	}
	direct := paketoRegion{name: "direct", flag: paketoFlag("-XX:MaxDirectMemorySize="), bytes: paketoDirect,
		format: func(b int64) string { return "-XX:MaxDirectMemorySize=" + paketoSize(b) }}
	heap := paketoRegion{name: "heap", flag: paketoFlag("-Xmx"), format: func(b int64) string { return "-Xmx" + paketoSize(b) }}
	meta := paketoRegion{name: "metaspace", flag: paketoFlag("-XX:MaxMetaspaceSize="), bytes: paketoClassOverhead + paketoClassSize*int64(loaded),
		format: func(b int64) string { return "-XX:MaxMetaspaceSize=" + paketoSize(b) }}
	code := paketoRegion{name: "code cache", flag: paketoFlag("-XX:ReservedCodeCacheSize="), bytes: paketoCodeCache,
		format: func(b int64) string { return "-XX:ReservedCodeCacheSize=" + paketoSize(b) }}
	stack := paketoRegion{name: "stack", flag: paketoFlag("-Xss"), bytes: paketoStack, format: func(b int64) string { return "-Xss" + paketoSize(b) }}
	regions := []*paketoRegion{&direct, &heap, &meta, &code, &stack}
	for _, r := range regions {
		r.fromUser(in.UserOptions)
	}
	fixed := direct.bytes + meta.bytes + code.bytes + stack.bytes*int64(threads)
	head := int64(float64(headPct) / 100 * float64(total))
	nonHeap := fixed + head
	listing := fmt.Sprintf("%s, %s, %s, %s × %d threads", direct.format(direct.bytes), meta.format(meta.bytes), code.format(code.bytes), stack.format(stack.bytes), threads)
	if nonHeap > total {
		return Options{}, &plan.RefusedError{LimitBytes: in.LimitBytes, MinBytes: paketoMinTotal(fixed, headPct),
			Why: fmt.Sprintf("the Paketo memory calculator needs %s for non-heap regions (%s, %d%% headroom), more than the limit, so the heap would be negative", paketoSize(nonHeap), listing, headPct)}
	}
	if !heap.user {
		heap.bytes = total - nonHeap
	}
	if all := nonHeap + heap.bytes; all > total {
		return Options{}, &plan.RefusedError{LimitBytes: in.LimitBytes,
			Why: fmt.Sprintf("the Paketo memory calculator needs %s for all regions with your %s, more than the limit", paketoSize(all), heap.format(heap.bytes))}
	}
	o := paketoOptions(in, regions, threads, head, classWhy)
	if heap.bytes < paketoJVMMinHeap {
		o.Warnings = append(o.Warnings, fmt.Sprintf("the calculator leaves a heap of %s, below what the JVM starts with (about %s): the JVM will refuse it (\"Too small maximum heap\")",
			size.Format(heap.bytes), size.Format(paketoJVMMinHeap)))
	}
	return o, nil
}

// paketoJVMMinHeap is about the smallest -Xmx HotSpot 17 and 25 start
// with: below it they stop with "Too small maximum heap" or a GC before
// initialisation. The calculator does not know this and emits the -Xmx.
const paketoJVMMinHeap = 8 * size.MiB

func (r *paketoRegion) fromUser(opts []string) {
	for _, o := range opts {
		if m := r.flag.FindStringSubmatch(strings.TrimSpace(o)); m != nil {
			n, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				continue
			}
			r.bytes, r.user = n*unitBytes(m[2]), true
		}
	}
}

func unitBytes(u string) int64 {
	switch strings.ToLower(u) {
	case "k":
		return size.KiB
	case "m":
		return size.MiB
	case "g":
		return size.GiB
	case "t":
		return size.TiB
	}
	return 1
}

// paketoMinTotal is the smallest limit the calculator accepts: the one
// that leaves a heap of zero.
func paketoMinTotal(fixed int64, headPct int) int64 {
	if headPct >= 100 {
		return 0
	}
	return int64(float64(fixed)/(1-float64(headPct)/100)) + 1
}

// paketoOptions lays the options out as the calculator writes
// JAVA_TOOL_OPTIONS: the user's first, then the sizes it computed.
func paketoOptions(in Input, regions []*paketoRegion, threads int, head int64, classWhy string) Options {
	var o Options
	o.Args = append(o.Args, in.UserOptions...)
	why := map[string]string{
		"direct":     "the calculator's default direct memory",
		"heap":       "what is left: total − (direct + metaspace + code cache + threads × stack + headroom)",
		"metaspace":  "14,000,000 + 5,800 × loaded classes; " + classWhy,
		"code cache": "the calculator's default reserved code cache",
		"stack":      fmt.Sprintf("the calculator's default stack, counted for %d threads", threads),
	}
	for _, r := range regions {
		b := r.bytes
		if r.name == "stack" {
			b *= int64(threads)
		}
		o.Regions = append(o.Regions, Region{Name: r.name, Bytes: b, Why: why[r.name]})
		if r.user {
			o.Why = append(o.Why, Reason{r.format(r.bytes), "yours (JAVA_TOOL_OPTIONS): kept, the rest sized around it"})
			continue
		}
		o.add(r.format(r.bytes), why[r.name])
	}
	if head > 0 {
		o.Regions = append(o.Regions, Region{Name: "headroom", Bytes: head, Why: "BPL_JVM_HEAD_ROOM"})
	}
	return o
}

// paketoSize writes a size as the calculator does: whole KiB (truncated),
// in the largest unit that divides it.
func paketoSize(b int64) string {
	k := b / size.KiB
	switch {
	case k == 0:
		return "0"
	case k%size.GiB == 0:
		return fmt.Sprintf("%dT", k/size.GiB)
	case k%size.MiB == 0:
		return fmt.Sprintf("%dG", k/size.MiB)
	case k%size.KiB == 0:
		return fmt.Sprintf("%dM", k/size.KiB)
	}
	return fmt.Sprintf("%dK", k)
}

func paketoInt(in Input, key string, def int) (int, error) {
	s, ok := in.env(key)
	if !ok || s == "" {
		return def, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s=%q: give a whole number", key, s)
	}
	return v, nil
}
