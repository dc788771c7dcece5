package plan

import (
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The one rule by which the user's options win over a plan, for every
// entrypoint: `jvmfit flags`, `jvmfit exec` and trials under --jvm jvmfit.
// The user's options are every JVM option they give from any source: the
// descriptor's jvm_options, --jvm options, JAVA_OPTIONS, JAVA_TOOL_OPTIONS,
// JDK_JAVA_OPTIONS and java's own command-line options.
//
//  1. The plan is computed knowing them (Input.UserOptions), so it sizes
//     the other regions around theirs and plans nothing in theirs.
//  2. Any plan option for a flag they set is dropped all the same (two
//     spellings of one flag count as one: -Xmx and -XX:MaxHeapSize), so the
//     JVM never sees both, whatever order a source is read in: the JVM
//     reads JAVA_TOOL_OPTIONS before the command line, where a plan's
//     option would otherwise win.
//  3. On a command line the plan's options come first and the user's
//     after them: HotSpot takes the last occurrence.

// Override applies the rule: it computes the plan for in with user added to
// in.UserOptions, drops from the plan any option for a flag the user sets
// (rule 2; p.Options then holds only what jvmfit adds), and returns the
// plan with the command line's options: the plan's, then user (rule 3).
func Override(in Input, user []string) (*Plan, []string, error) {
	in.UserOptions = append(append([]string{}, in.UserOptions...), user...)
	p, err := Compute(in)
	if err != nil {
		return nil, nil, err
	}
	if start := startHeap(in.UserOptions); start > p.HeapBytes() {
		// The JVM refuses an -Xmx below the user's -Xms; with none, it
		// raises its maximum heap to the -Xms. So the heap is theirs:
		// planned as a heap they fixed, with no -Xmx of jvmfit's.
		fixed := in
		fixed.UserOptions = append(append([]string{}, in.UserOptions...), "-XX:MaxHeapSize="+size.JVM(start))
		if p, err = Compute(fixed); err != nil {
			return nil, nil, err
		}
		p.Kept = withoutOption(p.Kept, "-XX:MaxHeapSize="+size.JVM(start))
		why := "your initial heap is more than jvmfit would plan: the maximum heap is raised to it"
		p.Regions[0].Source, p.Regions[0].Why = "user", why
		x := size.JVM(start)
		p.Options = append([]string{"-Xmx" + x}, p.Options...)
		p.Reasons = append([]Reason{{Option: "-Xmx" + x, Name: "MaxHeapSize", Value: x, Region: RegHeap, Why: why}}, p.Reasons...)
	}
	p.Options, p.Reasons = withoutUserFlags(p, in.UserOptions)
	return p, append(append([]string{}, p.Options...), user...), nil
}

// startHeap is the initial or minimum heap the user gives without a
// maximum (-Xms, -XX:InitialHeapSize, -XX:MinHeapSize), 0 when none or
// when they also size the maximum.
func startHeap(opts []string) int64 {
	u, err := parseUser(opts)
	if err != nil || u.has("MaxHeapSize") || userSteersHeap(u) {
		return 0
	}
	a, _ := u.size("InitialHeapSize")
	b, _ := u.size("MinHeapSize")
	return roundUp(max(a, b), mib)
}

func withoutOption(list []string, o string) []string {
	var out []string
	for _, v := range list {
		if v != o {
			out = append(out, v)
		}
	}
	return out
}

// withoutUserFlags is the plan's options and reasons less those for a flag
// the user sets (kept in p.Kept instead).
func withoutUserFlags(p *Plan, user []string) ([]string, []Reason) {
	set := map[string]string{}
	for _, o := range user {
		for _, k := range displaced(o) {
			set[k] = o
		}
	}
	var opts []string
	for _, o := range p.Options {
		if u, ok := set[FlagKey(o)]; ok && FlagKey(o) != "" {
			p.Kept = appendOnce(p.Kept, u)
			continue
		}
		opts = append(opts, o)
	}
	var reasons []Reason
	for _, r := range p.Reasons {
		if _, ok := set[FlagKey(r.Option)]; !ok || FlagKey(r.Option) == "" {
			reasons = append(reasons, r)
		}
	}
	return opts, reasons
}

// FlagKey names the JVM setting an option sets, so that two spellings of
// one are one key: -Xmx256m and -XX:MaxHeapSize=256m are MaxHeapSize,
// -XX:+UseSerialGC and -XX:+UseG1GC are both "gc", -Dk=v is "-Dk". It is ""
// for what sets no setting (-jar, -verbose:gc).
func FlagKey(o string) string {
	k, _, _ := flagOf(o)
	return k
}

// flagOf is FlagKey with the option's value ("" for booleans) and, for
// -XX:+/-, whether it is on.
func flagOf(o string) (key, value string, on bool) {
	switch {
	case strings.HasPrefix(o, "-XX:+") || strings.HasPrefix(o, "-XX:-"):
		name := o[5:]
		if o[4] == '+' && strings.HasPrefix(name, "Use") && strings.HasSuffix(name, "GC") {
			return "gc", strings.TrimSuffix(strings.TrimPrefix(name, "Use"), "GC"), true
		}
		return name, "", o[4] == '+'
	case strings.HasPrefix(o, "-XX:"):
		name, val, ok := strings.Cut(o[4:], "=")
		if !ok {
			return "", "", false
		}
		return name, val, false
	case len(o) > 4 && sizeAlias[o[:4]] != "":
		return sizeAlias[o[:4]], o[4:], false
	case strings.HasPrefix(o, "-D"):
		k, _, _ := strings.Cut(o, "=")
		return k, strings.TrimPrefix(o, k+"="), false
	}
	return "", "", false
}

// regionOf lists, for a user's flag, the plan's flags it displaces besides
// its own key: a heap given as a percentage of RAM is still the heap.
var regionOf = map[string][]string{
	"MaxRAMPercentage":        {"MaxHeapSize"},
	"MinRAMPercentage":        {"MaxHeapSize"},
	"MaxRAMFraction":          {"MaxHeapSize"},
	"MaxRAM":                  {"MaxHeapSize"},
	"InitialRAMPercentage":    {"InitialHeapSize"},
	"CrashOnOutOfMemoryError": {"ExitOnOutOfMemoryError"},
}

// displaced is the keys of the plan's flags a user's option replaces.
func displaced(o string) []string {
	k := FlagKey(o)
	if k == "" {
		return nil
	}
	return append([]string{k}, regionOf[k]...)
}
