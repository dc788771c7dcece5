// Package plan turns a container's limits, a JDK and a goal into JVM
// options: it splits the memory limit into regions (heap, metaspace, code
// cache, stacks, direct memory, native overhead, headroom), applies the
// seeds' rules for GC, JIT and CPU counts, and explains every choice.
//
// Compute is fast and reads nothing but the size of the JDK's CDS archive:
// the trial runner calls it for every trial.
package plan

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Input is everything a plan depends on.
type Input struct {
	Limits cgroup.Limits
	JDK    jdk.JDK
	// Goal is footprint, balanced (default when empty) or throughput.
	Goal string
	// UserOptions are the options the user already gives (command line,
	// JAVA_OPTIONS, JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS); they win.
	UserOptions []string
	// Profile holds an app's measured needs; nil uses scaled defaults.
	Profile *Profile
	// MaxMemRatio and InitMemRatio are run-java.sh's JAVA_MAX_MEM_RATIO and
	// JAVA_INIT_MEM_RATIO: heap and initial heap as a percentage of the
	// memory limit (0 = not set).
	MaxMemRatio, InitMemRatio float64

	cdsBytes int64 // the JDK's default CDS archive, read once by Compute
	// fit is Fit's mode: a limit the plan cannot hold is planned anyway,
	// around the user's options, with no cap on the open regions.
	fit bool
}

// Plan is the result: the options to add, the environment to set, the
// memory regions and the reason for each choice.
type Plan struct {
	Options []string          `json:"options"`
	Env     map[string]string `json:"env"`
	Regions []Region          `json:"regions"`
	Reasons []Reason          `json:"reasons"`
	// Kept lists the user's options that replaced one of jvmfit's.
	Kept []string `json:"kept,omitempty"`

	LimitBytes int64    `json:"limitBytes"`
	CPUs       float64  `json:"cpus"`
	CPUCount   int      `json:"cpuCount"`
	Goal       string   `json:"goal"`
	JDK        int      `json:"jdk"`
	GC         string   `json:"gc"` // Serial, Parallel, G1 or the user's
	C1Only     bool     `json:"c1Only"`
	Threads    int      `json:"threads"` // expected threads the stacks are sized for
	Warnings   []string `json:"warnings,omitempty"`
	// Doubt is Fit's one warning line, with its numbers: the plan may not
	// hold in the limit (docs/launcher.md, "Your options win"). Empty when
	// the plan fits.
	Doubt string `json:"doubt,omitempty"`
}

// Region is one share of the memory limit: what the process holds
// resident in it at its peak (caps counted whole), not what it reserves.
type Region struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	Option string `json:"option,omitempty"` // the option that caps it, if any
	Source string `json:"source"`           // jvmfit, user or profile
	Why    string `json:"why"`
}

// Reason explains one emitted option.
type Reason struct {
	Option string `json:"option"` // as passed to java
	Name   string `json:"name"`   // Xmx, MaxMetaspaceSize, ...
	Value  string `json:"value"`
	Region string `json:"region"`
	Why    string `json:"why"`
}

// Region names.
const (
	RegHeap      = "heap"
	RegMetaspace = "metaspace"
	RegClass     = "class space"
	RegCode      = "code cache"
	RegStacks    = "thread stacks"
	RegDirect    = "direct memory"
	RegGC        = "GC overhead"
	RegCompiler  = "compiler"
	RegNative    = "other native"
	RegCDS       = "CDS archive"
	RegAlloc     = "allocator overhead"
	RegKernel    = "kernel"
	RegHeadroom  = "headroom"
	RegCPU       = "cpu"
	RegGeneral   = "behaviour"
)

// HeapBytes is the planned maximum heap.
func (p *Plan) HeapBytes() int64 { return p.Region(RegHeap).Bytes }

// Region returns the named region (zero Region if absent).
func (p *Plan) Region(name string) Region {
	for _, r := range p.Regions {
		if r.Name == name {
			return r
		}
	}
	return Region{}
}

// Total is the sum of all regions but headroom.
func (p *Plan) Total() int64 {
	var t int64
	for _, r := range p.Regions {
		if r.Name != RegHeadroom {
			t += r.Bytes
		}
	}
	return t
}

// RefusedError says a limit is too small to run, and names the smallest
// limit that would be accepted.
type RefusedError struct {
	LimitBytes int64
	MinBytes   int64 // 0 when no limit would do (e.g. a user -Xmx too large)
	Why        string
}

func (e *RefusedError) Error() string {
	if e.MinBytes > 0 {
		return fmt.Sprintf("memory limit %s is too small: %s; the smallest limit accepted with these options is %s",
			size.Format(e.LimitBytes), e.Why, size.Format(e.MinBytes))
	}
	return fmt.Sprintf("memory limit %s cannot be planned: %s", size.Format(e.LimitBytes), e.Why)
}
