package anchor

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// run-java.sh's documented defaults (its readme and test/t/*.bats): on JDK
// 10+ no -Xmx unless JAVA_MAX_MEM_RATIO is set, and always
// ExitOnOutOfMemoryError; before 10, 25% up to 300 MB and 50% above,
// C1 only up to 300 MB, ParallelGC with its ratios, threads from the quota.
func TestRunJavaDocumentedDefaults(t *testing.T) {
	cases := []struct {
		jdk   int
		limit int64
		cpus  float64
		env   map[string]string
		user  []string
		want  string
	}{
		{17, size.GiB, 1, nil, nil, "-XX:+ExitOnOutOfMemoryError"},
		{25, 256 * size.MiB, 2, nil, nil, "-XX:+ExitOnOutOfMemoryError"},
		{17, size.GiB, 1, map[string]string{"JAVA_MAX_MEM_RATIO": "40"}, nil, "-Xmx410m -XX:+ExitOnOutOfMemoryError"},
		{17, size.GiB, 1, map[string]string{"JAVA_MAX_MEM_RATIO": "0"}, nil, "-XX:+ExitOnOutOfMemoryError"},
		{17, size.GiB, 1, map[string]string{"JAVA_MAX_MEM_RATIO": "50", "JAVA_INIT_MEM_RATIO": "25"}, nil, "-Xms256m -Xmx512m -XX:+ExitOnOutOfMemoryError"},
		// Your -Xmx wins; the script's options come after yours.
		{17, size.GiB, 1, map[string]string{"JAVA_MAX_MEM_RATIO": "50"}, []string{"-Xmx100m"}, "-Xmx100m -XX:+ExitOnOutOfMemoryError"},
		// A GC in JAVA_OPTIONS switches off all its GC options.
		{17, size.GiB, 1, nil, []string{"-XX:+UseSerialGC"}, "-XX:+UseSerialGC"},
		{8, 256 * size.MiB, 1, nil, nil, "-Xmx64m -XX:TieredStopAtLevel=1 -XX:ParallelGCThreads=1 -XX:ConcGCThreads=1 -Djava.util.concurrent.ForkJoinPool.common.parallelism=1 -XX:CICompilerCount=1 -XX:+UseParallelGC -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90 -XX:MinHeapFreeRatio=20 -XX:MaxHeapFreeRatio=40 -XX:+ExitOnOutOfMemoryError"},
		{8, size.GiB, 1.5, nil, nil, "-Xmx512m -XX:ParallelGCThreads=2 -XX:ConcGCThreads=2 -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 -XX:CICompilerCount=2 -XX:+UseParallelGC -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90 -XX:MinHeapFreeRatio=20 -XX:MaxHeapFreeRatio=40 -XX:+ExitOnOutOfMemoryError"},
		{8, size.GiB, 8, map[string]string{"JAVA_CORE_LIMIT": "0"}, nil, "-Xmx512m -XX:+UseParallelGC -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90 -XX:MinHeapFreeRatio=20 -XX:MaxHeapFreeRatio=40 -XX:+ExitOnOutOfMemoryError"},
	}
	for _, c := range cases {
		o, err := RunJava(Input{JDK: c.jdk, LimitBytes: c.limit, CPUs: c.cpus, Env: envOf(c.env), UserOptions: c.user})
		if got := strings.Join(o.Args, " "); err != nil || got != c.want {
			t.Errorf("JDK %d %s %v %q:\n got %q %v\nwant %q", c.jdk, size.Format(c.limit), c.env, c.user, got, err, c.want)
		}
	}
	if _, err := RunJava(Input{JDK: 17, LimitBytes: size.GiB, Env: envOf(map[string]string{"JAVA_MAX_MEM_RATIO": "4x"})}); err == nil {
		t.Error("JAVA_MAX_MEM_RATIO=4x accepted")
	}
}

// JDK 8's tiered compiler count, as run-java.sh replicates it.
func TestRunJavaCompilerCount(t *testing.T) {
	for cores, want := range map[int]int{1: 2, 2: 2, 4: 3, 8: 4, 16: 12, 64: 18} {
		if got := runJavaCompilers(cores, false); got != want {
			t.Errorf("%d cores: %d compilers, want %d", cores, got, want)
		}
	}
}
