package jdk

// since is the first release that has an option as a product flag, per
// feature line: the update that brought it to that line (by backport), or
// 0 when every update of the line has it. A line missing from the map and
// older than the newest listed one does not have it.
type since map[int]int

// availability of the -XX options jvmfit emits. Checked against
// -XX:+PrintFlagsFinal of every JDK installed here (TestAcceptsMatchesJVM).
var availability = map[string]struct {
	lines since
	from  int // every feature version ≥ from has it
	until int // feature version that removed it (0 = still there)
}{
	// 8u191 brought container support and ActiveProcessorCount to 8.
	"ActiveProcessorCount": {lines: since{8: 191}, from: 10},
	"UseContainerSupport":  {lines: since{8: 191}, from: 10},
	"MaxRAMPercentage":     {lines: since{8: 191}, from: 10},
	// Added by JDK-8281181 to 11.0.17 and 17.0.5 and to 19; obsolete in 20.
	"UseContainerCpuShares": {lines: since{11: 17, 17: 5}, from: 19, until: 20},
	// Product since 22; backported as product to 21.0.1 and 17.0.9.
	"TrimNativeHeapInterval": {lines: since{17: 9, 21: 1}, from: 22},
	// Experimental in 24, product from 25 (JEP 519).
	"UseCompactObjectHeaders": {from: 25},
	"ExitOnOutOfMemoryError":  {lines: since{8: 92}, from: 9},
}

// Accepts tells whether this JDK accepts -XX:name as a product option
// (no UnlockExperimentalVMOptions needed). Options jvmfit does not list are
// long-standing HotSpot options every supported version has.
func (j JDK) Accepts(name string) bool {
	a, ok := availability[name]
	if !ok {
		return j.Version >= 8
	}
	if a.until > 0 && j.Version >= a.until {
		return false
	}
	if j.Version >= a.from {
		return true
	}
	u, ok := a.lines[j.Version]
	return ok && j.Update >= u
}

// KnownOptions lists the options whose availability varies by version.
func KnownOptions() []string {
	out := make([]string, 0, len(availability))
	for k := range availability {
		out = append(out, k)
	}
	return out
}
