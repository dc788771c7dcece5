package docs_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The rule for tables of figures (bench/results/README.md states it too):
//
// A table whose rows show, outside code spans, a size (Mi, MiB, Gi, GiB; in
// a table MB, KB, GB too), a time (ms; in a table s and µs too), or a ratio
// (a number with ×, or one like 0.94 or 1.18), or whose header has a
// "jvmfit / …" or "tune / …" ratio column, is one of:
//
//   - generated: a result-table (from bench/results, resulttables_test.go)
//     or a plan-table (from `jvmfit flags`, plantables_test.go);
//   - bound cell by cell: every figure in its rows is followed by its own
//     <!-- result FILE KEY --> or <!-- result-earlier FILE KEY --> (checked
//     by TestMeasuredFiguresMatchResults); the first cell, the row's name,
//     and a "load …" column, the machine's load the results file records
//     with the run, are not figures;
//   - marked <!-- example --> (figures that show a format, measured by
//     nothing) or <!-- rules --> (settings, defaults and rules: jvmfit's, the
//     JDK's, an engine's), on the line above its header or in a row.
//
// A run recorded in a doc only (the old <!-- earlier-run DATE -->) is
// refused: a figure is measured by a script that writes a results file, or
// it is not quoted.
//
// Reference tables, whose first header cell is flag, key, field, setting or
// knob, list names and their meaning; their figures are defaults, not
// measurements, and need no marker.
var (
	wholeTableMarker = regexp.MustCompile(`<!-- (example|rules|plan-table)\b`)
	earlierRun       = regexp.MustCompile(`<!-- earlier-run\b`)
	sizeOrTime       = regexp.MustCompile(`\d(?:\s?(?:Mi|MiB|Gi|GiB|ms)\b|\s?×)`)
	ratioNumber      = regexp.MustCompile(`(?:^|[^\d.])\d\.\d\d(?:[^\d.]|$)`)
	ratioHeader      = regexp.MustCompile(`^\|.*\b(jvmfit|tune) / `)
	codeSpan         = regexp.MustCompile("`[^`]*`")
	htmlComment      = regexp.MustCompile(`<!--.*?-->`)
	loadColumn       = regexp.MustCompile(`^load\b`)
	// A marker that binds the figure before it: to a results file, or to
	// today's `jvmfit flags` (plantables_test.go).
	bindMarker = regexp.MustCompile(`<!-- (?:result|result-earlier) \S+\.json \S+ -->|<!-- flags \S+ \S+ -->`)
	// In a table a time in s or µs, or a size in MB, KB or GB, is a figure
	// too (in prose they are mostly settings: "a 10 s warm-up").
	tableMeasure  = regexp.MustCompile(`\d(?:\s?(?:s|µs|MB|KB|GB|kB)\b)`)
	version       = regexp.MustCompile(`\b(?:Go|JDK|Java|Temurin|OpenJDK|Debian|kernel|Kubernetes|Boot|Quarkus|Micronaut|Helidon|v)\s?\d+(?:\.\d+)+`)
	referenceHead = map[string]bool{"flag": true, "key": true, "field": true, "setting": true, "knob": true}
)

// visible is a line as a reader sees its prose: no comments, no code spans.
func visible(line string) string {
	return codeSpan.ReplaceAllString(htmlComment.ReplaceAllString(line, ""), "")
}

// showsFigure: a table row shows a measured-looking figure.
func showsFigure(row string) bool {
	return figureCount(row) > 0
}

// figureCount: how many measured-looking figures text shows (a version,
// "Go 1.26", "JDK 17.0.15", is not one).
func figureCount(text string) int {
	v := version.ReplaceAllString(visible(text), "")
	return len(sizeOrTime.FindAllString(v, -1)) + len(ratioNumber.FindAllString(v, -1))
}

// unbound: the figures of text not followed by their own result marker.
// Each stretch of text that ends at a marker may show one figure, the one
// the marker binds (TestMeasuredFiguresMatchResults checks its number); the
// text after the last marker may show none.
func unbound(text string) int {
	n := 0
	rest := text
	for {
		loc := bindMarker.FindStringIndex(rest)
		if loc == nil {
			return n + figureCount(rest)
		}
		if c := figureCount(rest[:loc[0]]); c > 1 {
			n += c - 1
		}
		rest = rest[loc[1]:]
	}
}

// docTable is one table of a doc: its lines' indexes, header first;
// generated when it lies between a result-table's markers.
type docTable struct {
	first, last int
	generated   bool
}

// docTables finds the tables outside code fences and comments (a
// result-table's template is a table inside a comment).
func docTables(lines []string) []docTable {
	var out []docTable
	fence, comment, generated := false, false, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
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
			generated = generated || resultTableStart.MatchString(l+"\n")
			continue
		case strings.HasPrefix(l, resultTableEnd):
			generated = false
			continue
		case !strings.HasPrefix(l, "|"):
			continue
		}
		t := docTable{first: i, generated: generated}
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|") {
			i++
		}
		t.last = i
		out = append(out, t)
	}
	return out
}

// tableProblem says what is wrong with one table, "" if nothing.
func tableProblem(lines []string, t docTable) string {
	head := splitRow(lines[t.first])
	if t.generated || len(head) > 0 && referenceHead[strings.Trim(head[0], "` ")] {
		return ""
	}
	from := t.first
	if from > 0 {
		from-- // the line above the header
	}
	for j := from; j <= t.last; j++ {
		if earlierRun.MatchString(lines[j]) {
			return "earlier-run: a run recorded in the doc only is no longer quoted: rerun the script that writes its results file and bind the figures, or say it in words without them"
		}
	}
	figures := ratioHeader.MatchString(lines[t.first])
	for j := t.first + 2; j <= t.last && !figures; j++ {
		figures = showsFigure(lines[j]) || tableMeasure.MatchString(version.ReplaceAllString(visible(lines[j]), ""))
	}
	if !figures {
		return ""
	}
	for j := from; j <= t.last; j++ {
		if wholeTableMarker.MatchString(lines[j]) {
			return ""
		}
	}
	bound := false
	for j := t.first + 2; j <= t.last; j++ {
		cells := splitRow(lines[j])
		for i, c := range cells {
			if i == 0 || i < len(head) && loadColumn.MatchString(head[i]) {
				continue // the row's name; the machine's load, recorded with the run
			}
			bound = bound || bindMarker.MatchString(c)
			if n := unbound(c); n > 0 {
				return fmt.Sprintf("line %d, cell %q: %d figure(s) without their own <!-- result FILE KEY --> (or make the table a result-table, or mark it example or rules)", j+1, c, n)
			}
		}
	}
	if !bound {
		return "a table of sizes, times or ratios with no source: a result-table, figures bound by <!-- result FILE KEY -->, a plan-table, example or rules"
	}
	return ""
}

// TestMeasuredTablesNameTheirSource: every table of figures says where they
// come from (the rule above).
func TestMeasuredTablesNameTheirSource(t *testing.T) {
	for _, rel := range allDocs(t) {
		lines := strings.Split(readDoc(t, rel), "\n")
		for _, tb := range docTables(lines) {
			if p := tableProblem(lines, tb); p != "" {
				t.Errorf("%s:%d: %s", rel, tb.first+1, p)
			}
		}
	}
}

// The rule's edges: what counts as a figure, what a table needs, cell by
// cell, and the refused earlier-run.
func TestTableRule(t *testing.T) {
	const r = "<!-- result demo.json k -->"
	for _, c := range []struct {
		doc    string
		tables int
		want   bool // a problem in the last table
	}{
		{"| app | min |\n|---|---|\n| sort | 136Mi |", 1, true},
		{"| app | p99 |\n|---|---|\n| sort | 7.4 ms |", 1, true},
		{"| app | start |\n|---|---|\n| sort | 7.4 s |", 1, true},
		{"| image | size |\n|---|---|\n| jdk17 | 207 MB |", 1, true},
		{"| app | ratio |\n|---|---|\n| sort | 0.94 |", 1, true},
		{"| app | jvmfit / best |\n|---|---|\n| sort | less |", 1, true},
		{"| app | min |\n|---|---|\n| sort | `--min 136Mi` |", 1, false},      // code
		{"| framework | version |\n|---|---|\n| Spring | 3.5.16 |", 1, false}, // a version
		{"| flag | default |\n|---|---|\n| `--max` | 1Gi |", 1, false},        // reference
		{"<!-- example -->\n| app | min |\n|---|---|\n| sort | 136Mi |", 1, false},
		{"<!-- rules -->\n| app | min |\n|---|---|\n| sort | 136Mi |", 1, false},
		{"| app | min |\n|---|---|\n| sort | 136Mi" + r + " |", 1, false},
		{"| app at 1Gi | min |\n|---|---|\n| sort 1Gi | 136Mi" + r + " |", 1, false}, // the row's name
		{"| app | min | load before → after |\n|---|---|---|\n| sort | 136Mi" + r + " | 7.69 → 4.42 |", 1, false},
		// cell by cell: one marker no longer vouches for the table
		{"| app | min | p99 |\n|---|---|---|\n| sort | 136Mi" + r + " | 7.4 ms |", 1, true},
		{"| app | min |\n|---|---|\n| sort | 136Mi" + r + " |\n| filecache | 144Mi |", 1, true},
		{"| app | min |\n|---|---|\n| sort | 136Mi (KO 128Mi)" + r + " |", 1, true},
		{"| app | min |\n|---|---|\n| sort | 136Mi" + r + " (KO 128Mi" + r + ") |", 1, false},
		{"<!-- result demo.json k -->\n| app | min |\n|---|---|\n| sort | 136Mi |", 1, true},
		// a run recorded in the doc only
		{"## A\nRun of 2026-11-22:\n\n<!-- earlier-run 2026-11-22 -->\n| app | min |\n|---|---|\n| sort | 136Mi |", 1, true},
		// a result-table: its template is not a table, its output is generated
		{"<!-- result-table demo.json\n| app | min |\n|---|---|\n| sort | {k}Mi |\n-->\n| app | min |\n|---|---|\n| sort | 136Mi |\n<!-- /result-table -->\n| app | min |\n|---|---|\n| sort | 136Mi |", 2, true},
	} {
		lines := strings.Split(c.doc, "\n")
		tbs := docTables(lines)
		if len(tbs) != c.tables {
			t.Fatalf("%q: %d tables, want %d", c.doc, len(tbs), c.tables)
		}
		for i, tb := range tbs {
			got := tableProblem(lines, tb)
			want := c.want && i == len(tbs)-1
			if (got != "") != want {
				t.Errorf("%q, table %d: problem %q, want one: %v", c.doc, i+1, got, want)
			}
		}
	}
}
