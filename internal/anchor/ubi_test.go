package anchor

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The UBI images' documented behaviour (modules/jvm/tests/features
// memory.feature and gc.feature, module.yaml).
func TestUBIDocumentedDefaults(t *testing.T) {
	const gc = "-XX:+UseParallelGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90"
	cases := []struct {
		env  map[string]string
		user []string
		want string
	}{
		{nil, nil, "-XX:MaxRAMPercentage=80.0 " + gc + " -XX:+ExitOnOutOfMemoryError"},
		{map[string]string{"JAVA_MAX_MEM_RATIO": "90.4"}, nil, "-XX:MaxRAMPercentage=90.0 " + gc + " -XX:+ExitOnOutOfMemoryError"},
		{map[string]string{"JAVA_MAX_MEM_RATIO": "90"}, nil, "-XX:MaxRAMPercentage=90.0 " + gc + " -XX:+ExitOnOutOfMemoryError"},
		{map[string]string{"JAVA_MAX_MEM_RATIO": "0"}, nil, gc + " -XX:+ExitOnOutOfMemoryError"},
		{map[string]string{"GC_MIN_HEAP_FREE_RATIO": "5", "GC_MAX_HEAP_FREE_RATIO": "50", "GC_MAX_METASPACE_SIZE": "100", "GC_METASPACE_SIZE": "200"}, nil,
			"-XX:MaxRAMPercentage=80.0 -XX:+UseParallelGC -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=50 -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90 -XX:MaxMetaspaceSize=100m -XX:MetaspaceSize=100m -XX:+ExitOnOutOfMemoryError"},
		// JAVA_OPTS_APPEND (yours) comes last and wins.
		{nil, []string{"-XX:MaxRAMPercentage=50"}, "-XX:MaxRAMPercentage=80.0 " + gc + " -XX:+ExitOnOutOfMemoryError -XX:MaxRAMPercentage=50"},
		{map[string]string{"JAVA_OPTS": "-Xmx1g"}, []string{"-Dignored=1"}, "-Xmx1g"},
	}
	for _, c := range cases {
		o, err := UBI(Input{JDK: 17, LimitBytes: size.GiB, CPUs: 1, Env: envOf(c.env), UserOptions: c.user})
		if got := strings.Join(o.Args, " "); err != nil || got != c.want {
			t.Errorf("%v %q:\n got %q %v\nwant %q", c.env, c.user, got, err, c.want)
		}
	}
	o, _ := UBI(Input{JDK: 17, UserOptions: []string{"-XX:+UseG1GC"}})
	if len(o.Warnings) == 0 {
		t.Error("a second collector after the image's ParallelGC is not reported")
	}
}
