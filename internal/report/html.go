package report

import (
	_ "embed"
	"html/template"
	"io"
	"strconv"
	"sync"

	"github.com/jvmfit/jvmfit/internal/judge"
)

// The chart library is Apache ECharts (assets/echarts.LICENSE), embedded
// so the page works offline and from file://.
var (
	//go:embed assets/echarts.min.js
	echartsJS string
	//go:embed assets/report.js
	appJS string
	//go:embed assets/guard.js
	guardJS string
	//go:embed assets/report.css
	pageCSS string
	//go:embed assets/report.html
	pageHTML string
)

// EChartsVersion is the embedded library's version.
const EChartsVersion = "5.6.0"

// Parsed on first use, so that commands that never render a page (jvmfit
// flags, exec) do not pay for it at start-up.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(pageHTML))
})

// pageData is the template's input. Every string from apps, options and
// trials goes through html/template's contextual escaping: as text in the
// tables, and as JSON (with <, > and & escaped) in the data block, so no
// name can close the script element or add markup.
type pageData struct {
	Title          string
	Version        string
	Header         []string
	Overview       *Table // several experiments only
	Sections       []pageSection
	Charts         int // charts on the page, for data-charts-expected
	Data           any
	CSS            template.CSS
	Guard, ECharts template.JS
	App            template.JS
	EChartsVersion string
}

// pageSection is one experiment: its charts, tables and conclusion.
type pageSection struct {
	Title   string // empty when the page holds one experiment (its title is the page's)
	Header  []string
	Charts  []chart
	Tables  []Table
	Summary *judge.Summary
	// The summary's Markdown, rendered.
	Details, Recommendation template.HTML
	Empty                   bool
}

// HTML writes one self-contained page: the tables of Sections and the
// charts, with ECharts inlined. version is jvmfit's, shown in the footer.
func HTML(w io.Writer, in Input, version string) error {
	return HTMLAll(w, []Input{in}, version)
}

// HTMLAll writes several experiments as one page: an overview, then a
// section per experiment with its charts and tables. One experiment is
// laid out as HTML lays it out.
func HTMLAll(w io.Writer, ins []Input, version string) error {
	d := pageData{
		Version:        version,
		CSS:            template.CSS(pageCSS),
		Guard:          template.JS(guardJS),
		ECharts:        template.JS(echartsJS),
		App:            template.JS(appJS),
		EChartsVersion: EChartsVersion,
	}
	all := []chart{}
	if len(ins) > 1 {
		// Seed 004's curve reads across the experiments: a section of its
		// own, before theirs.
		ts := searchTrials(ins)
		if t := RateCurveTable(ts); t != nil {
			sec := pageSection{Title: t.Title, Tables: []Table{*t}}
			if c := rateCurveChart(ts); c != nil {
				c.ID = "chart-" + strconv.Itoa(len(all)+1)
				sec.Charts = []chart{*c}
				all = append(all, *c)
			}
			d.Sections = append(d.Sections, sec)
		}
	}
	for _, in := range ins {
		sec := pageSection{Charts: buildCharts(in), Tables: Sections(in), Summary: in.Meta.Summary, Empty: len(in.Trials) == 0}
		if s := in.Meta.Summary; s != nil {
			sec.Details, sec.Recommendation = renderMarkdown(s.Details), renderMarkdown(s.Text)
		}
		// Chart ids must be unique on the page.
		for i := range sec.Charts {
			sec.Charts[i].ID = "chart-" + strconv.Itoa(len(all)+1)
			all = append(all, sec.Charts[i])
		}
		if len(ins) > 1 {
			sec.Title, sec.Header = experimentTitle(in.Meta), headerLines(in)
		}
		d.Sections = append(d.Sections, sec)
	}
	if len(ins) == 1 {
		d.Title, d.Header = title(ins[0].Meta), headerLines(ins[0])
	} else {
		o := Overview(ins)
		d.Title, d.Header, d.Overview = bookTitle(ins), bookHeader(ins), &o
	}
	d.Charts = len(all)
	d.Data = map[string]any{"charts": all}
	return page().Execute(w, d)
}
