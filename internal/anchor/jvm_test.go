package anchor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

var maxHeapLine = regexp.MustCompile(`(?m)^\s*size_t\s+MaxHeapSize\s+=\s+(\d+)`)

// Real JVMs 17 and 25 accept every style's options at 256Mi, 1Gi and 4Gi
// (the limit given to the JVM as -XX:MaxRAM, as a container would), and
// size the heap the way the style says. Paketo refuses 256Mi before any
// JVM starts.
func TestRealJVMsAcceptEveryStyle(t *testing.T) {
	jar := "../../workloads/filecache/target/filecache.jar"
	if _, err := os.Stat(jar); err != nil {
		jar = emptyJar(t)
	}
	for _, java := range []string{"/usr/lib/jvm/java-17-openjdk-amd64/bin/java", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"} {
		j, err := jdk.Inspect(java)
		if err != nil {
			t.Logf("%s: %v", java, err)
			continue
		}
		for _, limit := range []int64{256 * size.MiB, size.GiB, 4 * size.GiB} {
			for _, style := range Names() {
				t.Run(fmt.Sprintf("%d/%s/%s", j.Version, size.Format(limit), style), func(t *testing.T) {
					o, err := Compute(style, Input{LimitBytes: limit, CPUs: 1, JDK: j.Version, JavaHome: j.Home, Jar: jar})
					var ref *plan.RefusedError
					if errors.As(err, &ref) {
						if style != "paketo" || limit > 512*size.MiB {
							t.Fatalf("refused: %v", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					checkJVM(t, java, limit, o)
				})
			}
		}
	}
}

func checkJVM(t *testing.T, java string, limit int64, o Options) {
	args := append([]string{fmt.Sprintf("-XX:MaxRAM=%d", limit), "-XX:ActiveProcessorCount=1"}, o.Args...)
	cmd := exec.Command(java, append(args, "-XX:+PrintFlagsFinal", "-version")...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java rejected %s's options %q: %v\n%s", o.Style, o.Args, err, lastLines(stderr.String(), 3))
	}
	if s := strings.ToLower(stderr.String()); strings.Contains(s, "warning") || strings.Contains(s, "unrecognized") {
		t.Errorf("java complained about %q: %s", o.Args, lastLines(stderr.String(), 3))
	}
	m := maxHeapLine.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatal("no MaxHeapSize in -XX:+PrintFlagsFinal")
	}
	heap, _ := strconv.ParseInt(m[1], 10, 64)
	var want int64
	switch o.Style {
	case "ubi":
		want = limit * 80 / 100
	case "paketo":
		for _, r := range o.Regions {
			if r.Name == "heap" {
				want = r.Bytes
			}
		}
	default:
		return // the JDK's own ergonomics
	}
	if d := float64(heap-want) / float64(want); d < -0.02 || d > 0.02 {
		t.Errorf("%s: MaxHeapSize %s, want about %s", o.Style, size.Format(heap), size.Format(want))
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// Where a style itself emits options the JDK rejects, the style says so:
// Paketo just above its own minimum (a heap of a few MiB), and UBI with a
// collector of yours after its ParallelGC.
func TestFindingsTheJDKRejects(t *testing.T) {
	const java = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java)
	j, err := jdk.Inspect(java)
	if err != nil {
		t.Fatalf("JDK 17: %v", err)
	}
	in := Input{LimitBytes: 256 * size.MiB, CPUs: 1, JDK: j.Version, JavaHome: j.Home, Jar: emptyJar(t)}
	_, err = Paketo(in)
	var ref *plan.RefusedError
	if !errors.As(err, &ref) {
		t.Fatalf("256Mi: %v", err)
	}
	in.LimitBytes = ref.MinBytes + size.MiB
	tight, err := Compute("paketo", in)
	if err != nil || len(tight.Warnings) == 0 {
		t.Fatalf("paketo at its minimum + 1Mi: %v, warnings %q; want a warning", err, tight.Warnings)
	}
	in.UserOptions = []string{"-XX:+UseG1GC"}
	ubi, _ := Compute("ubi", in)
	if len(ubi.Warnings) == 0 {
		t.Fatal("ubi with your G1: no warning")
	}
	for _, o := range []Options{tight, ubi} {
		args := append([]string{fmt.Sprintf("-XX:MaxRAM=%d", in.LimitBytes)}, o.Args...)
		if out, err := exec.Command(java, append(args, "-version")...).CombinedOutput(); err == nil {
			t.Errorf("%s %q: the JVM accepted it; the warning %q is wrong\n%s", o.Style, o.Args, o.Warnings, out)
		}
	}
}

// Below about 250 MiB HotSpot takes MinRAMPercentage (50%) for the heap and
// ignores UBI's MaxRAMPercentage=80, as the style warns (measured on
// filecache: UBI's heap at 192Mi was 96Mi, at 256Mi 206Mi).
func TestUBIBelowSmallRAMGetsHalf(t *testing.T) {
	const java = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java)
	for _, limit := range []int64{192 * size.MiB, 224 * size.MiB, 256 * size.MiB} {
		o, err := Compute("ubi", Input{LimitBytes: limit, CPUs: 1, JDK: 17})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(java, append(append([]string{fmt.Sprintf("-XX:MaxRAM=%d", limit)}, o.Args...), "-XX:+PrintFlagsFinal", "-version")...).Output()
		if err != nil {
			t.Fatal(err)
		}
		heap, _ := strconv.ParseInt(maxHeapLine.FindStringSubmatch(string(out))[1], 10, 64)
		half := heap <= limit/2+size.MiB
		if half != (len(o.Warnings) > 0) {
			t.Errorf("%s: MaxHeapSize %s, warnings %q: the warning should be there exactly when the heap is half", size.Format(limit), size.Format(heap), o.Warnings)
		}
	}
}
