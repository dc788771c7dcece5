package anchor

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// UBI is Red Hat's UBI OpenJDK images (jboss-container-images/openjdk,
// modules/jvm/.../java-default-options and modules/run/.../run-java.sh):
// MaxRAMPercentage=80 (JAVA_MAX_MEM_RATIO), ParallelGC with ratios that
// shrink the heap eagerly (GC_* variables), ExitOnOutOfMemoryError, then
// JAVA_OPTS_APPEND, where the user's options go. JAVA_OPTS, when set,
// replaces all of it. The options do not depend on the limit: the JVM
// applies the percentage to the container's memory itself.
func UBI(in Input) (Options, error) {
	var o Options
	if s, ok := in.env("JAVA_OPTS"); ok {
		o.Args = strings.Fields(s)
		o.Why = append(o.Why, Reason{"(JAVA_OPTS)", "JAVA_OPTS is set: the image generates nothing"})
		return o, nil
	}
	if err := ubiHeap(&o, in); err != nil {
		return Options{}, err
	}
	if err := ubiGC(&o, in); err != nil {
		return Options{}, err
	}
	o.add("-XX:+ExitOnOutOfMemoryError", "exit on the first OutOfMemoryError, so the container restarts")
	o.Args = append(o.Args, in.UserOptions...)
	if gcNamed(in.UserOptions) {
		o.Warnings = append(o.Warnings, "your options name a GC after the image's -XX:+UseParallelGC: the JVM refuses two collectors (set GC_CONTAINER_OPTIONS instead)")
	}
	return o, nil
}

func ubiHeap(o *Options, in Input) error {
	s, _ := in.env("JAVA_MAX_MEM_RATIO")
	switch s {
	case "0":
		o.Why = append(o.Why, Reason{"(no MaxRAMPercentage)", "JAVA_MAX_MEM_RATIO=0 switches it off"})
		return nil
	case "":
		o.add("-XX:MaxRAMPercentage=80.0", "80% of the container's memory for the heap (the image's default)")
		smallMemoryWarning(o, in)
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("JAVA_MAX_MEM_RATIO=%q: the UBI images take a percentage such as 80", s)
	}
	// printf "%.0f" rounds half to even.
	o.add(fmt.Sprintf("-XX:MaxRAMPercentage=%.0f.0", math.RoundToEven(v)), "JAVA_MAX_MEM_RATIO, rounded to a whole percentage")
	smallMemoryWarning(o, in)
	return nil
}

// smallRAM is about where HotSpot stops applying MaxRAMPercentage: when
// MinRAMPercentage (50%) of the memory is below its default MaxHeapSize
// (about 125 MiB on 64-bit Linux), it takes that 50% as the heap instead.
const smallRAM = 250 * size.MiB

func smallMemoryWarning(o *Options, in Input) {
	if in.LimitBytes > 0 && in.LimitBytes < smallRAM {
		o.Warnings = append(o.Warnings, fmt.Sprintf("below about %s the JVM ignores MaxRAMPercentage and gives the heap MinRAMPercentage (50%%) of the limit: %s here, not 80%%",
			size.Format(smallRAM), size.Format(in.LimitBytes/2)))
	}
}

func ubiGC(o *Options, in Input) error {
	get := func(key, def string) string {
		if v, ok := in.env(key); ok && v != "" {
			return v
		}
		return def
	}
	why := "the image's ParallelGC tuning: shrink the heap eagerly, favour footprint over GC time"
	for _, opt := range strings.Fields(get("GC_CONTAINER_OPTIONS", "-XX:+UseParallelGC")) {
		o.add(opt, "GC_CONTAINER_OPTIONS (default ParallelGC)")
	}
	o.add("-XX:MinHeapFreeRatio="+get("GC_MIN_HEAP_FREE_RATIO", "10"), why)
	o.add("-XX:MaxHeapFreeRatio="+get("GC_MAX_HEAP_FREE_RATIO", "20"), why)
	o.add("-XX:GCTimeRatio="+get("GC_TIME_RATIO", "4"), why)
	o.add("-XX:AdaptiveSizePolicyWeight="+get("GC_ADAPTIVE_SIZE_POLICY_WEIGHT", "90"), why)
	maxMeta, _ := in.env("GC_MAX_METASPACE_SIZE")
	meta, _ := in.env("GC_METASPACE_SIZE")
	if maxMeta != "" {
		o.add("-XX:MaxMetaspaceSize="+maxMeta+"m", "GC_MAX_METASPACE_SIZE")
	}
	if meta != "" {
		m, err1 := strconv.Atoi(meta)
		mx, err2 := strconv.Atoi(maxMeta)
		if err1 == nil && err2 == nil && m > mx {
			meta = maxMeta // the image clamps it to the maximum
		}
		o.add("-XX:MetaspaceSize="+meta+"m", "GC_METASPACE_SIZE")
	}
	return nil
}

// gcNamed reports whether opts select a collector.
func gcNamed(opts []string) bool {
	for _, o := range opts {
		if strings.HasPrefix(o, "-XX:+Use") && strings.HasSuffix(o, "GC") {
			return true
		}
	}
	return false
}
