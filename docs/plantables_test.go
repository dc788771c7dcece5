package docs_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// update rewrites the generated tables in place instead of comparing them:
// `go test ./docs -run TestPlanTables -update`.
var update = flag.Bool("update", false, "rewrite the docs' generated plan tables from `jvmfit flags`")

// A plan table in a doc is what `jvmfit flags --format json` prints for each
// row, between two markers:
//
//	<!-- plan-table jdk=17 cols=limit,cpus,heap,gc rows=128Mi/1/balanced,1Gi/2/throughput -->
//	| limit | CPUs | heap | GC |
//	...
//	<!-- /plan-table -->
//
// jdk is the JDK major the doc states the table for: the java the test runs
// with must be that one, or the comparison would mean nothing.
var (
	planStart = regexp.MustCompile(`<!-- plan-table jdk=(\d+) cols=(\S+) rows=(\S+) -->`)
	planEnd   = "<!-- /plan-table -->"
)

// planJSON is the part of `jvmfit flags --format json` the tables show.
type planJSON struct {
	Options []string `json:"options"`
	Regions []struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	} `json:"regions"`
	LimitBytes int64  `json:"limitBytes"`
	JDK        int    `json:"jdk"`
	GC         string `json:"gc"`
	C1Only     bool   `json:"c1Only"`
}

func (p planJSON) region(name string) int64 {
	for _, r := range p.Regions {
		if r.Name == name {
			return r.Bytes
		}
	}
	return 0
}

// option returns the value of -XX:NAME=V or -NAMEV (Xmx, Xms), "" if absent.
func (p planJSON) option(prefix string) string {
	for _, o := range p.Options {
		if strings.HasPrefix(o, prefix) {
			return strings.TrimPrefix(o, prefix)
		}
	}
	return ""
}

// planColumns: header and cell of each column a marker may name.
var planColumns = map[string]struct {
	header string
	cell   func(row planRow, p planJSON) string
}{
	"limit":  {"limit", func(r planRow, _ planJSON) string { return r.limit }},
	"cpus":   {"CPUs", func(r planRow, _ planJSON) string { return r.cpus }},
	"goal":   {"goal", func(r planRow, _ planJSON) string { return r.goal }},
	"heap":   {"heap", func(_ planRow, p planJSON) string { return mi(p.region("heap")) }},
	"share":  {"heap (share of the limit)", heapShare},
	"gc":     {"GC", func(_ planRow, p planJSON) string { return p.GC }},
	"jit":    {"JIT", jit},
	"meta":   {"metaspace cap", func(_ planRow, p planJSON) string { return optionMi(p.option("-XX:MaxMetaspaceSize=")) }},
	"code":   {"code cache cap", func(_ planRow, p planJSON) string { return optionMi(p.option("-XX:ReservedCodeCacheSize=")) }},
	"direct": {"direct cap", func(_ planRow, p planJSON) string { return optionMi(p.option("-XX:MaxDirectMemorySize=")) }},
	"stacks": {"stacks", func(_ planRow, p planJSON) string { return mi(p.region("thread stacks")) }},
	"nonheap": {"non-heap (every other region)", func(_ planRow, p planJSON) string {
		return mi(nonHeap(p))
	}},
	"headroom": {"headroom", func(_ planRow, p planJSON) string { return mi(p.region("headroom")) }},
	"free": {"headroom + unassigned", func(_ planRow, p planJSON) string {
		return mi(p.LimitBytes - p.region("heap") - nonHeap(p))
	}},
}

func nonHeap(p planJSON) int64 {
	var n int64
	for _, r := range p.Regions {
		if r.Name != "heap" && r.Name != "headroom" {
			n += r.Bytes
		}
	}
	return n
}

func heapShare(_ planRow, p planJSON) string {
	h := p.region("heap")
	s := fmt.Sprintf("%s (%d%%)", mi(h), int(math.Round(100*float64(h)/float64(p.LimitBytes))))
	if p.option("-Xms") != "" {
		s += ", `-Xms` = `-Xmx`"
	}
	return s
}

func jit(_ planRow, p planJSON) string {
	if p.C1Only {
		return "C1"
	}
	return "C1+C2"
}

func mi(b int64) string { return fmt.Sprintf("%dMi", int64(math.Round(float64(b)/(1<<20)))) }

// optionMi turns an option's size (128m, 1g, 512k) into MiB; "" is no cap.
func optionMi(v string) string {
	if v == "" {
		return "no cap"
	}
	n, err := strconv.ParseInt(v[:len(v)-1], 10, 64)
	if err != nil {
		return "?" + v
	}
	switch strings.ToLower(v[len(v)-1:]) {
	case "k":
		n <<= 10
	case "m":
		n <<= 20
	case "g":
		n <<= 30
	}
	return mi(n)
}

type planRow struct{ limit, cpus, goal string }

// renderPlanTable runs `jvmfit flags` for each row and renders the table.
func renderPlanTable(t *testing.T, jdk int, cols []string, rows []planRow) string {
	t.Helper()
	var b strings.Builder
	var heads, rules []string
	for _, c := range cols {
		col, ok := planColumns[c]
		if !ok {
			t.Fatalf("plan-table: unknown column %q", c)
		}
		heads = append(heads, col.header)
		rules = append(rules, "---")
	}
	fmt.Fprintf(&b, "| %s |\n|%s|\n", strings.Join(heads, " | "), strings.Join(rules, "|"))
	for _, r := range rows {
		var p planJSON
		out := jvmfit(t, "flags", "--format", "json", "--memory", r.limit, "--cpus", r.cpus, "--goal", r.goal)
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("flags --format json: %v", err)
		}
		if p.JDK != jdk {
			t.Fatalf("plan-table: the doc's table is for JDK %d and the java here is JDK %d: run with JDK %d first on PATH (bash .ci/install)", jdk, p.JDK, jdk)
		}
		var cells []string
		for _, c := range cols {
			cells = append(cells, planColumns[c].cell(r, p))
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
	}
	return b.String()
}

// TestPlanTablesAreFlagsOutput: every plan table in the docs is exactly what
// `jvmfit flags` prints today; a planner change that moves a figure fails
// here until the tables are regenerated (-update) and the text around them
// reread.
func TestPlanTablesAreFlagsOutput(t *testing.T) {
	needJava(t)
	found := 0
	for _, rel := range allDocs(t) {
		doc := readDoc(t, rel)
		var out strings.Builder
		rest := doc
		for {
			loc := planStart.FindStringSubmatchIndex(rest)
			if loc == nil {
				out.WriteString(rest)
				break
			}
			found++
			m := planStart.FindStringSubmatch(rest[loc[0]:loc[1]])
			jdk, _ := strconv.Atoi(m[1])
			var rows []planRow
			for _, spec := range strings.Split(m[3], ",") {
				f := strings.Split(spec, "/")
				if len(f) != 3 {
					t.Fatalf("%s: plan-table row %q: want LIMIT/CPUS/GOAL", rel, spec)
				}
				rows = append(rows, planRow{f[0], f[1], f[2]})
			}
			end := strings.Index(rest[loc[1]:], planEnd)
			if end < 0 {
				t.Fatalf("%s: %s without %s", rel, m[0], planEnd)
			}
			have := strings.TrimSpace(rest[loc[1] : loc[1]+end])
			want := strings.TrimSpace(renderPlanTable(t, jdk, strings.Split(m[2], ","), rows))
			if have != want && !*update {
				t.Errorf("%s: the plan table after %s is not what jvmfit flags prints today; regenerate it with `go test ./docs -run TestPlanTables -update` and reread the text around it.\nhave:\n%s\nwant:\n%s", rel, m[0], have, want)
			}
			out.WriteString(rest[:loc[1]] + "\n" + want + "\n" + planEnd)
			rest = rest[loc[1]+end+len(planEnd):]
		}
		if *update && out.String() != doc {
			if err := os.WriteFile(filepath.Join("..", rel), []byte(out.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no plan-table marker in the docs")
	}
}

// A figure of the plan in running text is bound to `jvmfit flags` by a
// comment right after it, as a measured figure is bound to its results file:
//
//	G1<!-- flags 2Gi/2/balanced gc --> at 2Gi, a heap of 126<!-- flags 416Mi/2/balanced heap -->Mi
//
// FIELD is a column of the plan tables above (heap, gc, jit, meta, code,
// direct, stacks, headroom); the word or number before the comment must be
// what that column shows for `jvmfit flags --memory LIMIT --cpus CPUS
// --goal GOAL` today (a number stands for its Mi).
var flagsMarker = regexp.MustCompile(`<!-- flags (\S+)/(\S+)/(\S+) (\S+) -->`)

// lastToken: the word or number right before a marker, without emphasis or
// code marks.
func lastToken(before string) string {
	f := strings.Fields(strings.NewReplacer("*", "", "`", "").Replace(htmlComment.ReplaceAllString(before, "")))
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[len(f)-1], "(),;:")
}

// TestPlanFiguresInTextAreFlagsOutput: every plan figure bound in the text
// is what `jvmfit flags` prints today.
func TestPlanFiguresInTextAreFlagsOutput(t *testing.T) {
	needJava(t)
	checked := 0
	for _, rel := range allDocs(t) {
		for i, line := range strings.Split(readDoc(t, rel), "\n") {
			for _, loc := range flagsMarker.FindAllStringSubmatchIndex(line, -1) {
				m := func(k int) string { return line[loc[2*k]:loc[2*k+1]] }
				where := fmt.Sprintf("%s:%d", rel, i+1)
				col, ok := planColumns[m(4)]
				if !ok {
					t.Errorf("%s: flags marker: unknown field %q", where, m(4))
					continue
				}
				var p planJSON
				out := jvmfit(t, "flags", "--format", "json", "--memory", m(1), "--cpus", m(2), "--goal", m(3))
				if err := json.Unmarshal([]byte(out), &p); err != nil {
					t.Fatalf("flags --format json: %v", err)
				}
				want := col.cell(planRow{m(1), m(2), m(3)}, p)
				if got := lastToken(line[:loc[0]]); got != want && got+"Mi" != want {
					t.Errorf("%s: says %q for %s at %s/%s/%s, and `jvmfit flags` gives %s today: update the doc", where, got, m(4), m(1), m(2), m(3), want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no plan figure bound with <!-- flags LIMIT/CPUS/GOAL FIELD --> in the docs")
	}
}
