package anchor

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// runJavaC2Threshold is run-java.sh's 300 MB line: at or below it, JDKs
// before 10 get a quarter of the memory as heap and C1 only.
const runJavaC2Threshold = 314572800

// runJavaGC is the test run-java.sh applies to JAVA_OPTIONS before adding
// its GC options: any -XX:...Use...GC in the whole string, as grep sees it.
var runJavaGC = regexp.MustCompile(`-XX:.*Use.*GC`)

// RunJava is fabric8's run-java.sh (fish-pepper/run-java-sh/fp-files/
// run-java.sh): JAVA_OPTIONS first, then its defaults. For JDK 10 and later
// it leaves heap, JIT and CPUs to the JVM unless JAVA_MAX_MEM_RATIO or
// JAVA_INIT_MEM_RATIO is set, and adds only -XX:+ExitOnOutOfMemoryError;
// before 10 it sizes the heap (25% up to 300 MB, else 50%), picks
// ParallelGC with shrinking ratios, and sets thread counts from the quota.
func RunJava(in Input) (Options, error) {
	var o Options
	o.Args = append(o.Args, in.UserOptions...)
	if err := runJavaMemory(&o, in); err != nil {
		return Options{}, err
	}
	runJavaJIT(&o, in)
	if err := runJavaCPU(&o, in); err != nil {
		return Options{}, err
	}
	runJavaGCOptions(&o, in)
	return o, nil
}

func runJavaMemory(o *Options, in Input) error {
	user := strings.Join(in.UserOptions, " ")
	if ratio, set, err := percentEnv(in, "JAVA_INIT_MEM_RATIO"); err != nil {
		return err
	} else if set && ratio != 0 && in.LimitBytes > 0 && !strings.Contains(user, "-Xms") {
		o.add(runJavaMem("ms", in.LimitBytes, ratio), fmt.Sprintf("JAVA_INIT_MEM_RATIO=%d%% of the container's memory", ratio))
	}
	if strings.Contains(user, "-Xmx") || in.LimitBytes <= 0 {
		return nil
	}
	ratio, set, err := percentEnv(in, "JAVA_MAX_MEM_RATIO")
	switch {
	case err != nil:
		return err
	case set && ratio == 0:
		return nil // explicitly switched off
	case set:
		o.add(runJavaMem("mx", in.LimitBytes, ratio), fmt.Sprintf("JAVA_MAX_MEM_RATIO=%d%% of the container's memory", ratio))
	case in.JDK >= 10:
		o.Why = append(o.Why, Reason{"(no -Xmx)", "JDK 10+ and no JAVA_MAX_MEM_RATIO: the JVM's own MaxRAMPercentage (25%) sizes the heap"})
	case in.LimitBytes <= runJavaC2Threshold:
		o.add(runJavaMem("mx", in.LimitBytes, 25), "JDK before 10, container at most 300 MB: a quarter of its memory")
	default:
		o.add(runJavaMem("mx", in.LimitBytes, 50), "JDK before 10, container above 300 MB: half of its memory")
	}
	return nil
}

// runJavaMem is the script's -Xmx/-Xms: the ratio of the limit in whole
// MiB, rounded half up.
func runJavaMem(kind string, limit int64, ratio int) string {
	return fmt.Sprintf("-X%s%dm", kind, int64(float64(limit)*float64(ratio)/100/1048576+0.5))
}

// percentEnv reads a whole percentage, as the script's shell test needs.
func percentEnv(in Input, key string) (int, bool, error) {
	s, ok := in.env(key)
	if !ok || s == "" {
		return 0, false, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, false, fmt.Errorf("%s=%q: run-java.sh takes a whole percentage such as 50", key, s)
	}
	return v, true, nil
}

func runJavaJIT(o *Options, in Input) {
	if in.JDK >= 10 || hasOption(in.UserOptions, "-XX:TieredStopAtLevel") {
		return
	}
	if in.LimitBytes > 0 && in.LimitBytes <= runJavaC2Threshold {
		o.add("-XX:TieredStopAtLevel=1", "JDK before 10, container at most 300 MB: C1 only")
	}
}

func runJavaCPU(o *Options, in Input) error {
	if in.JDK >= 10 || in.CPUs <= 0 {
		return nil
	}
	cores := int(math.Ceil(in.CPUs))
	if s, ok := in.env("JAVA_CORE_LIMIT"); ok && s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("JAVA_CORE_LIMIT=%q: run-java.sh takes a whole number of cores", s)
		}
		if n == 0 {
			return nil
		}
		cores = n
	}
	why := fmt.Sprintf("JDK before 10 does not see the quota: %d core(s)", cores)
	o.add(fmt.Sprintf("-XX:ParallelGCThreads=%d", cores), why)
	o.add(fmt.Sprintf("-XX:ConcGCThreads=%d", cores), why)
	o.add(fmt.Sprintf("-Djava.util.concurrent.ForkJoinPool.common.parallelism=%d", cores), why)
	c1Only := in.LimitBytes > 0 && in.LimitBytes <= runJavaC2Threshold
	o.add(fmt.Sprintf("-XX:CICompilerCount=%d", runJavaCompilers(cores, c1Only)), "the JDK 8 tiered policy's compiler count for that many cores")
	return nil
}

// runJavaCompilers is the script's copy of JDK 8's tiered compiler count,
// with awk's truncation after every step.
func runJavaCompilers(cores int, c1Only bool) int {
	logCPU := int(math.Log2(float64(cores)))
	logLog := int(math.Log2(float64(max(logCPU, 1))))
	count := max(logCPU*logLog, 1) * 3 / 2
	c1 := max(count/3, 1)
	if c1Only {
		return c1
	}
	return c1 + max(count-c1, 1)
}

func runJavaGCOptions(o *Options, in Input) {
	if runJavaGC.MatchString(strings.Join(in.UserOptions, " ")) {
		o.Why = append(o.Why, Reason{"(no GC options)", "JAVA_OPTIONS names a GC: run-java.sh adds no GC options, not even ExitOnOutOfMemoryError"})
		return
	}
	if in.JDK < 10 {
		why := "JDK before 10: ParallelGC, shrinking the heap eagerly (ratios tuned for footprint)"
		for _, opt := range []string{"-XX:+UseParallelGC", "-XX:GCTimeRatio=4", "-XX:AdaptiveSizePolicyWeight=90", "-XX:MinHeapFreeRatio=20", "-XX:MaxHeapFreeRatio=40"} {
			o.add(opt, why)
		}
	}
	if in.JDK != 7 {
		o.add("-XX:+ExitOnOutOfMemoryError", "exit on the first OutOfMemoryError, so the container restarts")
	}
	if in.JDK >= 10 {
		o.Warnings = append(o.Warnings, "run-java.sh leaves heap, GC, JIT and CPUs to the JVM on JDK 10+: apart from ExitOnOutOfMemoryError this is the JDK's own ergonomics")
	}
}
