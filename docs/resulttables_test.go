package docs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A table of measured figures is generated from results files: its template
// sits in a comment, every figure a {KEY} of a results file, and the table a
// reader sees follows it, up to the end marker:
//
//	<!-- result-table large-20261126T201324Z.json
//	| limit | heap | p99 | kernel OOM kill |
//	|---|---|---|---|
//	| 1Gi | {1Gi.jvmfit.run1.heap_mib %.0f}Mi | {1Gi.jvmfit.run1.p99_ms %.1f} ms | {1Gi.jvmfit.run1.oom_killed yes/no} |
//	-->
//	| limit | heap | p99 | kernel OOM kill |
//	|---|---|---|---|
//	| 1Gi | 676Mi | 7.4 ms | no |
//	<!-- /result-table -->
//
// {KEY} is figures[KEY] of the file the marker names, {FILE:KEY} another
// file's; an optional format follows the key: a printf verb (%.0f, %.1f),
// with what to print for a negative figure after a ; (%.0fMi;none: -1 is
// "none, the JDK's default" in a results file), or YES/NO, which prints
// YES for 1 and NO for 0. Without one the number is
// printed as the file holds it. `result-table-earlier` quotes an earlier
// planner's run, as result-earlier does: every file's plans must then differ
// from today's `jvmfit flags`; `result-table` requires them to be today's.
// Outside the placeholders, a template's rows show no figure but in their
// first cell (the row's name), so every figure a reader sees has a key.
//
// A table whose rows come one from each file, as a bench script that writes
// a file per app does, names the files with $row and lists the rows:
//
//	<!-- result-table panel-20261127-$row-jdk17-1cpu-all.json rows=sort,heapbound
//	| app | defaults |
//	|---|---|
//	| $row | {$row.jdk17.cpus1.default.min_ok_mib? %.0fMi;none} |
//	-->
//
// Each template row that holds $row is repeated once a row, with $row the
// row's name in its keys and its file. A key ending in ? may be absent from
// the file (a search with no passing limit writes no minimum); the format's
// text after ; is then printed, as for a negative figure.
//
// `go test ./docs -run TestResultTables -update` rewrites the tables from
// the files after a bench script has rerun.
var (
	resultTableStart = regexp.MustCompile(`(?m)^<!-- (result-table|result-table-earlier) (\S+\.json)(?: rows=(\S+))?\n`)
	resultTableEnd   = "<!-- /result-table -->"
	placeholder      = regexp.MustCompile(`\{(?:(\S+\.json):)?([^\s{}]+)(?: ([^{}]+))?\}`)
)

// rowToken stands for the row's name in a per-row template (see above).
const rowToken = "$row"

// resultTable is one generated table of a doc.
type resultTable struct {
	kind, file string
	rows       []string // the rows' names, when the file names $row
	template   []string // the template's lines
	start, end int      // byte offsets of the generated table in the doc
}

// findResultTables returns the result tables of doc in order.
func findResultTables(t *testing.T, rel, doc string) []resultTable {
	t.Helper()
	var out []resultTable
	for _, loc := range resultTableStart.FindAllStringSubmatchIndex(doc, -1) {
		kind, file := doc[loc[2]:loc[3]], doc[loc[4]:loc[5]]
		var rows []string
		if loc[6] >= 0 {
			rows = strings.Split(doc[loc[6]:loc[7]], ",")
		}
		if (rows != nil) != strings.Contains(file, rowToken) {
			t.Fatalf("%s: result-table %s: a file named with %s goes with rows=NAME,NAME, and rows= with such a file", rel, file, rowToken)
		}
		close := strings.Index(doc[loc[1]:], "-->\n")
		if close < 0 {
			t.Fatalf("%s: result-table %s: the template's comment is not closed by a line -->", rel, file)
		}
		tmpl := strings.TrimRight(doc[loc[1]:loc[1]+close], "\n")
		start := loc[1] + close + len("-->\n")
		end := strings.Index(doc[start:], resultTableEnd)
		if end < 0 {
			t.Fatalf("%s: result-table %s without %s", rel, file, resultTableEnd)
		}
		out = append(out, resultTable{kind, file, rows, strings.Split(tmpl, "\n"), start, start + end})
	}
	return out
}

// renderCell fills one template cell's placeholders from the files.
func renderCell(cell, file string, load func(string) results) (string, error) {
	var err error
	out := placeholder.ReplaceAllStringFunc(cell, func(p string) string {
		m := placeholder.FindStringSubmatch(p)
		f, key, format := file, m[2], m[3]
		if m[1] != "" {
			f = m[1]
		}
		key, mayLack := strings.CutSuffix(key, "?")
		v, ok := load(f).Figures[key]
		if !ok && mayLack {
			if _, absent, has := strings.Cut(format, ";"); has {
				return absent
			}
			err = fmt.Errorf("{%s?}: a key that may be absent needs a format with what to print then (%%.0fMi;none)", key)
			return p
		}
		if !ok {
			err = fmt.Errorf("bench/results/%s has no figure %q", f, key)
			return p
		}
		s, e := formatFigure(v, format)
		if e != nil {
			err = fmt.Errorf("{%s}: %v", key, e)
		}
		return s
	})
	return out, err
}

// formatFigure prints v as format says (see the rule above).
func formatFigure(v float64, format string) (string, error) {
	switch {
	case format == "":
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case strings.HasPrefix(format, "%"):
		verb, negative, ok := strings.Cut(format, ";")
		if ok && v < 0 {
			return negative, nil
		}
		return fmt.Sprintf(verb, v), nil
	case strings.Count(format, "/") == 1:
		yes, no, _ := strings.Cut(format, "/")
		switch v {
		case 1:
			return yes, nil
		case 0:
			return no, nil
		}
		return "", fmt.Errorf("%v is neither 1 nor 0 for %s", v, format)
	}
	return "", fmt.Errorf("format %q: want a printf verb (%%.1f) or YES/NO", format)
}

// templateProblem: a figure in a template row outside a placeholder (first
// cell apart), "" if none.
func templateProblem(row string) string {
	cells := splitRow(row)
	for i, c := range cells {
		if i == 0 {
			continue
		}
		if rest := placeholder.ReplaceAllString(c, ""); showsFigure("| " + rest + " |") {
			return fmt.Sprintf("cell %q shows a figure outside a {KEY}: bind it to a results file's key or leave it out", c)
		}
	}
	return ""
}

// renderResultTable renders a template's rows from the results files.
func renderResultTable(rt resultTable, load func(string) results) (string, []string) {
	var b strings.Builder
	var problems []string
	for i, line := range rt.template {
		if i >= 2 && strings.HasPrefix(line, "|") {
			if p := templateProblem(line); p != "" {
				problems = append(problems, p)
			}
		}
		for _, r := range expand(rt, line) {
			s, err := renderCell(r.line, r.file, load)
			if err != nil {
				problems = append(problems, err.Error())
			}
			b.WriteString(s + "\n")
		}
	}
	return b.String(), problems
}

// expandedLine is one template line with its row's name filled in, and the
// file its keys read.
type expandedLine struct{ line, file string }

// expand: a template line once a row if it holds $row, else as it is.
func expand(rt resultTable, line string) []expandedLine {
	if rt.rows == nil || !strings.Contains(line, rowToken) {
		return []expandedLine{{line, rt.file}}
	}
	out := make([]expandedLine, len(rt.rows))
	for i, r := range rt.rows {
		out[i] = expandedLine{strings.ReplaceAll(line, rowToken, r), strings.ReplaceAll(rt.file, rowToken, r)}
	}
	return out
}

// filesOf: the results files a template reads.
func filesOf(rt resultTable) []string {
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, r := range expand(rt, rt.file) {
		add(r.file)
	}
	for _, line := range rt.template {
		for _, el := range expand(rt, line) {
			for _, m := range placeholder.FindAllStringSubmatch(el.line, -1) {
				if m[1] != "" {
					add(m[1])
				}
			}
		}
	}
	return out
}

// resultsCache loads each results file once, with its stale plans.
type resultsCache struct {
	t     *testing.T
	files map[string]results
	stale map[string][]string
}

func newResultsCache(t *testing.T) *resultsCache {
	return &resultsCache{t: t, files: map[string]results{}, stale: map[string][]string{}}
}

func (c *resultsCache) load(file string) results {
	if r, ok := c.files[file]; ok {
		return r
	}
	r := loadResults(c.t, file)
	c.files[file] = r
	c.stale[file] = stalePlans(c.t, r)
	return r
}

// planProblem: a figure of FILE quoted as today's (earlier false) or an
// earlier planner's (earlier true) that its plans contradict, "" if none.
func (c *resultsCache) planProblem(file string, earlier bool) string {
	r := c.load(file)
	switch {
	case !earlier && len(c.stale[file]) > 0:
		return fmt.Sprintf("%s was measured with jvmfit's plan at %v, which `jvmfit flags` no longer prints: rerun %s, or quote it as an earlier planner's (result-earlier, result-table-earlier) and say so", file, c.stale[file], r.Script)
	case earlier && len(r.Plans) > 0 && len(c.stale[file]) == 0:
		return fmt.Sprintf("%s is quoted as an earlier planner's, but its plan is what `jvmfit flags` prints today: quote it as today's (result, result-table)", file)
	}
	return ""
}

// TestResultTablesAreResultsFiles: every result table is what its template
// renders from today's results files, and the files' plans are as the
// marker says (today's, or an earlier planner's).
func TestResultTablesAreResultsFiles(t *testing.T) {
	needJava(t)
	cache := newResultsCache(t)
	found := 0
	for _, rel := range allDocs(t) {
		doc := readDoc(t, rel)
		rts := findResultTables(t, rel, doc)
		if len(rts) == 0 {
			continue
		}
		var out strings.Builder
		at := 0
		for _, rt := range rts {
			found++
			where := fmt.Sprintf("%s:%d", rel, strings.Count(doc[:rt.start], "\n")+1)
			want, problems := renderResultTable(rt, cache.load)
			for _, f := range filesOf(rt) {
				if p := cache.planProblem(f, rt.kind == "result-table-earlier"); p != "" {
					problems = append(problems, p)
				}
			}
			for _, p := range problems {
				t.Errorf("%s: %s", where, p)
			}
			have := doc[rt.start:rt.end]
			if have != want && !*update {
				t.Errorf("%s: the table is not what its template renders from bench/results today: regenerate it with `go test ./docs -run TestResultTables -update` and reread the text around it.\nhave:\n%swant:\n%s", where, have, want)
			}
			out.WriteString(doc[at:rt.start] + want)
			at = rt.end
		}
		out.WriteString(doc[at:])
		if *update && out.String() != doc {
			if err := os.WriteFile(filepath.Join("..", rel), []byte(out.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no result-table in the docs")
	}
}

// The template's rules: placeholders, formats, and a figure left in a row.
func TestResultTableTemplate(t *testing.T) {
	files := map[string]results{
		"a.json": {Figures: map[string]float64{"x.min_ok_mib": 136, "x.p99_ms": 7.411, "x.oom": 0, "x.cap": -1}},
		"b.json": {Figures: map[string]float64{"y": 0.94}},
	}
	load := func(f string) results { return files[f] }
	rt := resultTable{kind: "result-table", file: "a.json", template: []string{
		"| app | min | p99 | OOM | ratio | cap |",
		"|---|---|---|---|---|---|",
		"| x 1Gi | {x.min_ok_mib}Mi | {x.p99_ms %.1f} ms | {x.oom yes/no} | {b.json:y} | {x.cap %.0fMi;none}, {x.min_ok_mib %.0fMi;none} |",
	}}
	got, problems := renderResultTable(rt, load)
	if want := "| app | min | p99 | OOM | ratio | cap |\n|---|---|---|---|---|---|\n| x 1Gi | 136Mi | 7.4 ms | no | 0.94 | none, 136Mi |\n"; got != want || len(problems) > 0 {
		t.Errorf("rendered %q, problems %v; want %q", got, problems, want)
	}
	if fs := filesOf(rt); len(fs) != 2 || fs[1] != "b.json" {
		t.Errorf("filesOf: %v", fs)
	}
	for _, row := range []string{
		"| x | {x.min_ok_mib}Mi (KO 128Mi) |",        // a figure outside a key
		"| x | {x.nothing}Mi |",                      // no such key
		"| x | {x.oom OK/KO} and {x.p99_ms OK/KO} |", // 7.411 is not 0 or 1
	} {
		rt.template = []string{"| a | b |", "|---|---|", row}
		if _, problems := renderResultTable(rt, load); len(problems) == 0 {
			t.Errorf("%q: no problem found", row)
		}
	}
}

// A table with a row from each file: each $row line is repeated a row, with
// the row's file and keys; a key with ? may be absent, and only that one.
func TestResultTableRows(t *testing.T) {
	files := map[string]results{
		"p-sort.json":   {Figures: map[string]float64{"sort.min": 136, "sort.paketo": 608}},
		"p-direct.json": {Figures: map[string]float64{"direct.min": 144}},
		"ref.json":      {Figures: map[string]float64{"best": 128}},
	}
	load := func(f string) results { return files[f] }
	rt := resultTable{kind: "result-table", file: "p-$row.json", rows: []string{"sort", "direct"}, template: []string{
		"| app | min | Paketo | best |",
		"|---|---|---|---|",
		"| $row | {$row.min}Mi | {$row.paketo? %.0fMi;none¹} | {ref.json:best}Mi |",
	}}
	got, problems := renderResultTable(rt, load)
	want := "| app | min | Paketo | best |\n|---|---|---|---|\n| sort | 136Mi | 608Mi | 128Mi |\n| direct | 144Mi | none¹ | 128Mi |\n"
	if got != want || len(problems) > 0 {
		t.Errorf("rendered %q, problems %v; want %q", got, problems, want)
	}
	if fs := filesOf(rt); strings.Join(fs, " ") != "p-sort.json p-direct.json ref.json" {
		t.Errorf("filesOf: %v", fs)
	}
	for _, row := range []string{
		"| $row | {$row.paketo}Mi |",  // absent, and not marked as may be
		"| $row | {$row.paketo?}Mi |", // may be absent, but says not what to print
		"| $row | {$row.nothing? %.0f;none} and {$row.min %.0f;none} {$row.max %.0f;none} |", // max: absent, unmarked
	} {
		rt.template = []string{"| a | b |", "|---|---|", row}
		if _, problems := renderResultTable(rt, load); len(problems) == 0 {
			t.Errorf("%q: no problem found", row)
		}
	}
}
