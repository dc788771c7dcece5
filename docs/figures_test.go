package docs_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

// A measured figure in a doc names where it comes from, in a comment right
// after the number:
//
//	needs **136 MiB**<!-- result demo.json minmem.jvmfit.min_ok_mib -->
//
// "result FILE KEY": the number is bench/results/FILE's figures[KEY], and
// the plan FILE recorded for jvmfit's answer is what `jvmfit flags` prints
// today (a jvmfit minimum holds for the plan it was measured with only).
// "result-earlier FILE KEY": the same number, kept as an earlier planner's
// (the doc says so); FILE's plan must then differ from today's.
// "example": a figure given to show a format, measured by nothing.
var (
	figureMarker = regexp.MustCompile(`<!-- (result|result-earlier) (\S+\.json) (\S+) -->`)
	lastNumber   = regexp.MustCompile(`\d+(?:\.\d+)?`)
	figureDocs   = []string{"README.md", "ARCHITECTURE.md"}
)

// results is one bench/results/*.json file.
type results struct {
	Script   string             `json:"script"`
	Recorded string             `json:"recorded"`
	Date     string             `json:"date"`
	Machine  string             `json:"machine"`
	Figures  map[string]float64 `json:"figures"`
	Plans    map[string]string  `json:"plans"`
}

func loadResults(t *testing.T, file string) results {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "bench", "results", file))
	if err != nil {
		t.Fatalf("results file: %v", err)
	}
	var r results
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("bench/results/%s: %v", file, err)
	}
	if r.Script == "" || r.Date == "" || r.Machine == "" {
		t.Fatalf("bench/results/%s: script, date and machine are required", file)
	}
	if why := notScriptWritten("..", r); why != "" {
		t.Fatalf("bench/results/%s is quoted, but %s: a doc quotes only figures a bench script writes (bench/results/README.md); rerun the script that writes it, or say the run in words without its numbers (git history keeps them)", file, why)
	}
	return r
}

// stalePlans: the plans a results file recorded that `jvmfit flags` no
// longer prints, as "LIMIT/CPUS/GOAL" (planned for the default java) or
// "LIMIT/CPUS/GOAL/jdkN" (for the run's JDK: a plan may differ by JDK, so a
// JDK 21 cell is checked against JDK 21's plan, not the default's).
func stalePlans(t *testing.T, r results) []string {
	t.Helper()
	var out []string
	for _, key := range sortedKeys(r.Plans) {
		f := strings.Split(key, "/")
		if len(f) != 3 && len(f) != 4 {
			t.Fatalf("plan %q: want LIMIT/CPUS/GOAL or LIMIT/CPUS/GOAL/jdkN", key)
		}
		args := []string{"flags", "--memory", f[0], "--cpus", f[1], "--goal", f[2]}
		if len(f) == 4 {
			args = append(args, "--java", planJava(t, f[3]))
		}
		now := strings.TrimSpace(jvmfit(t, args...))
		if now != r.Plans[key] {
			out = append(out, key)
		}
	}
	return out
}

// allDocs: README.md, ARCHITECTURE.md and docs/*.md.
func allDocs(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The measured pages (docs/measured/TOPIC.md) hold the most figures.
	measured, err := filepath.Glob(filepath.Join("..", "docs", "measured", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, measured...)
	out := append([]string{}, figureDocs...)
	for _, p := range pages {
		out = append(out, filepath.ToSlash(strings.TrimPrefix(p, "../")))
	}
	return out
}

// TestMeasuredFiguresMatchResults: every marked figure is its results file's,
// and a figure of jvmfit's plan is today's plan's unless marked earlier.
func TestMeasuredFiguresMatchResults(t *testing.T) {
	needJava(t)
	cache := map[string]results{}
	stale := map[string][]string{}
	checked := 0
	for _, rel := range allDocs(t) {
		for i, line := range strings.Split(readDoc(t, rel), "\n") {
			for _, loc := range figureMarker.FindAllStringSubmatchIndex(line, -1) {
				kind, file, key := line[loc[2]:loc[3]], line[loc[4]:loc[5]], line[loc[6]:loc[7]]
				r, ok := cache[file]
				if !ok {
					r = loadResults(t, file)
					cache[file] = r
					stale[file] = stalePlans(t, r)
				}
				where := rel + ":" + strconv.Itoa(i+1)
				before := strings.NewReplacer("*", "", "`", "").Replace(line[:loc[0]])
				nums := lastNumber.FindAllString(before, -1)
				if len(nums) == 0 {
					t.Errorf("%s: no number before the marker for %s %s", where, file, key)
					continue
				}
				quoted, _ := strconv.ParseFloat(nums[len(nums)-1], 64)
				want, ok := r.Figures[key]
				switch {
				case !ok:
					t.Errorf("%s: bench/results/%s has no figure %q", where, file, key)
				case quoted != want:
					t.Errorf("%s: quotes %s for %s %s, and %s's run of %s measured %v: update the doc (or rerun %s)",
						where, nums[len(nums)-1], file, key, r.Script, r.Date, want, r.Script)
				case kind == "result" && len(stale[file]) > 0:
					t.Errorf("%s: %s %s was measured with jvmfit's plan at %v, which `jvmfit flags` no longer prints: rerun %s, or mark it result-earlier and say it is an earlier planner's",
						where, file, key, stale[file], r.Script)
				case kind == "result-earlier" && len(r.Plans) > 0 && len(stale[file]) == 0:
					t.Errorf("%s: %s %s is marked result-earlier, but its plan is what `jvmfit flags` prints today: mark it result", where, file, key)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no figure marked <!-- result FILE KEY --> in the docs")
	}
}

// Figures in running text. In every doc (README.md, ARCHITECTURE.md,
// docs/*.md) every measured-looking figure of the prose (a size, a time in
// ms, a ratio: what tables_test.go calls a figure) is bound to a results
// file by its own <!-- result FILE KEY --> right after it, or its line says
// it is illustrative (<!-- example -->) or a setting or rule
// (<!-- rules -->). Code (spans and fences) and tables, which have their own
// rule, are not prose.
var lineMarker = regexp.MustCompile(`<!-- (example|rules) -->`)

// proseProblems: the prose lines of doc with a figure that is neither bound
// nor marked, as "LINE: TEXT".
func proseProblems(doc string) []string {
	var out []string
	fence, comment := false, false
	raw := strings.Split(doc, "\n")
	for i, l := range maskCode(raw) {
		switch {
		case strings.HasPrefix(l, "```"):
			fence = !fence
			continue
		case fence:
			continue
		case comment:
			comment = !strings.Contains(l, "-->")
			continue
		case strings.HasPrefix(l, "<!--") && !strings.Contains(l, "-->"):
			comment = true
			continue
		case strings.HasPrefix(raw[i], "|"), strings.HasPrefix(raw[i], "    "), lineMarker.MatchString(l):
			continue // tables have their own rule; indented code; a marked line
		}
		if unbound(l) > 0 {
			out = append(out, fmt.Sprintf("%d: %s", i+1, strings.TrimSpace(l)))
		}
	}
	return out
}

// maskCode blanks the code spans of each paragraph, a span running over
// several lines included, so that what is in code (an option, a command, an
// output) is never read as prose, and a marker written inside code, which a
// reader would see, counts for nothing.
func maskCode(lines []string) []string {
	out := append([]string{}, lines...)
	fence, start := false, -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		par := strings.Join(out[start:end], "\n")
		par = codeSpan.ReplaceAllStringFunc(par, func(c string) string {
			return strings.Map(func(r rune) rune {
				if r == '\n' {
					return r
				}
				return ' '
			}, c)
		})
		copy(out[start:end], strings.Split(par, "\n"))
		start = -1
	}
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "```"):
			flush(i)
			fence = !fence
		case fence:
		case strings.TrimSpace(l) == "":
			flush(i)
		case start < 0:
			start = i
		}
	}
	flush(len(lines))
	return out
}

// TestProseFiguresAreBound: no figure of the running text lacks its source.
func TestProseFiguresAreBound(t *testing.T) {
	for _, rel := range allDocs(t) {
		for _, p := range proseProblems(readDoc(t, rel)) {
			t.Errorf("%s:%s\n\ta figure in the text without its source: bind it (<!-- result FILE KEY --> right after it), say it without the number, or mark the line <!-- example --> or <!-- rules -->", rel, p)
		}
	}
}

func TestProseRule(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want int
	}{
		{"needs **152 MiB**<!-- result demo.json k --> with the defaults", 0},
		{"needs 152 MiB with the defaults", 1},
		{"0.78<!-- result f.json a --> and 0.72 of the best anchor", 1},
		{"a margin of 16 MiB<!-- rules -->", 0},
		{"p99 7.4 ms, as an example <!-- example -->", 0},
		{"`--memory 256Mi` is an option, not a figure", 0},
		{"```\n256Mi\n```\n| a | 256Mi |", 0},
		{"<!-- result-table x.json\n| a | 256Mi |\n-->", 0},
		{"with Go 1.26 and JDK 17.0.15", 0},
		{"run `minmem --min 32Mi\n--max 256Mi` and see", 0},   // a code span over two lines
		{"it needs `--min\n32Mi <!-- rules -->` and 48Mi", 1}, // a marker inside code is no marker
	} {
		if got := proseProblems(c.doc); len(got) != c.want {
			t.Errorf("%q: %v, want %d problem(s)", c.doc, got, c.want)
		}
	}
}

// planJava: the java a results file's "jdkN" plan key names, one of the
// JDKs .ci/install puts on every machine.
func planJava(t *testing.T, jdk string) string {
	t.Helper()
	java, ok := map[string]string{"jdk17": jvmtest.Java17, "jdk21": jvmtest.Java21, "jdk25": jvmtest.Java25, "jdk11": jvmtest.Java11}[jdk]
	if !ok {
		t.Fatalf("plan key's JDK %q: want jdk11, jdk17, jdk21 or jdk25", jdk)
	}
	jvmtest.Need(t, java)
	return java
}
