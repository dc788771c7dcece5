package plan

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

var threadsIn = regexp.MustCompile(`(\d+) threads`)

// The option table and the region table name the same thread count
// (issue 12, finding 9).
func TestExplainThreadsAgree(t *testing.T) {
	for _, m := range []int64{96, 256, 1024, 8192} {
		for _, in := range []Input{
			{Limits: limits(m*mib, 1), JDK: jdk17},
			{Limits: limits(m*mib, 2), JDK: jdk25, UserOptions: []string{"-Xss1m"}},
			{Limits: limits(m*mib, 1), JDK: jdk17, Profile: &Profile{PeakThreads: 77}},
		} {
			p, err := Compute(in)
			if err != nil {
				continue
			}
			var out bytes.Buffer
			if err := p.Explain(&out); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.Contains(line, "thread stacks") || strings.HasPrefix(line, "ThreadStackSize") {
					for _, g := range threadsIn.FindAllStringSubmatch(line, -1) {
						seen[g[1]] = true
					}
				}
			}
			if len(seen) != 1 || !seen[strconv.Itoa(p.Threads)] {
				t.Errorf("%dMi: thread counts %v in --explain, plan counts %d:\n%s", m, seen, p.Threads, out.String())
			}
		}
	}
}

var refusalNums = regexp.MustCompile(`too small: ([\d.]+[KMG]i) of non-heap \((.*)\) and ([\d.]+[KMG]i) headroom leave (nothing|[\d.]+[KMG]i) for the heap`)
var partNum = regexp.MustCompile(`[a-zA-Z ]+ ([\d.]+[KMG]i)`)

// A refusal's numbers add up: the non-heap parts sum to the non-heap
// total, and the limit minus non-heap and headroom is what it says is left
// (issue 12, finding 11: "79Mi of non-heap and 6Mi headroom leave 0" at 88Mi).
func TestRefusalArithmetic(t *testing.T) {
	checked, withLeft := 0, 0
	// Without a profile the JDK's heap is taken and nothing is refused
	// above 16 MiB: refusals come from a measured profile (the heap gives
	// way to its non-heap, down to 3/4 of its live set) or a tiny limit.
	pr, err := LoadProfile("testdata/filecache-c1-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int64{12, 20, 48, 60, 70, 76, 80, 96, 100} {
		for _, in := range []Input{
			{Limits: limits(m*mib, 1), JDK: jdk17, Profile: pr},
			{Limits: limits(m*mib, 4), JDK: jdk25, Goal: Throughput, Profile: pr},
		} {
			_, err := Compute(in)
			var ref *RefusedError
			if !errors.As(err, &ref) {
				continue
			}
			g := refusalNums.FindStringSubmatch(err.Error())
			if g == nil {
				t.Fatalf("%dMi: refusal not in the expected form: %v", m, err)
			}
			checked++
			if g[4] != "nothing" {
				withLeft++
			}
			var sum float64
			parts := partNum.FindAllStringSubmatch(g[2], -1)
			for _, part := range parts {
				sum += mibOf(t, part[1])
			}
			// Each part is shown to 0.1 MiB: a profile's are not whole MiB.
			tol := 0.05*float64(len(parts)+1) + 0.01
			total, head := mibOf(t, g[1]), mibOf(t, g[3])
			if d := sum - total; d > tol || d < -tol {
				t.Errorf("%dMi: parts sum to %.1f MiB, message says %s: %v", m, sum, g[1], err)
			}
			left := float64(m) - total - head
			switch {
			case g[4] == "nothing" && left > 0.05:
				t.Errorf("%dMi: says nothing is left, but %.1f MiB is: %v", m, left, err)
			case g[4] != "nothing" && (mibOf(t, g[4])-left > 0.15 || left-mibOf(t, g[4]) > 0.15):
				t.Errorf("%dMi: says %s is left, arithmetic gives %.1f MiB: %v", m, g[4], left, err)
			}
		}
	}
	if checked < 6 || withLeft == 0 {
		t.Errorf("only %d refusals checked, %d with something left for the heap", checked, withLeft)
	}
}

func mibOf(t *testing.T, s string) float64 {
	t.Helper()
	b, err := size.Parse(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return float64(b) / float64(mib)
}
