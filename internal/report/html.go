package report

import (
	_ "embed"
	"html/template"
	"io"
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

var page = template.Must(template.New("report").Parse(pageHTML))

// pageData is the template's input. Every string from apps, options and
// trials goes through html/template's contextual escaping: as text in the
// tables, and as JSON (with <, > and & escaped) in the data block, so no
// name can close the script element or add markup.
type pageData struct {
	Title          string
	Version        string
	Header         []string
	Charts         []chart
	Tables         []Table
	Data           any
	CSS            template.CSS
	Guard, ECharts template.JS
	App            template.JS
	EChartsVersion string
}

// HTML writes one self-contained page: the tables of Sections and the
// charts, with ECharts inlined. version is jvmfit's, shown in the footer.
func HTML(w io.Writer, in Input, version string) error {
	charts := buildCharts(in)
	if charts == nil {
		charts = []chart{}
	}
	d := pageData{
		Title:          title(in.Meta),
		Version:        version,
		Header:         headerLines(in),
		Charts:         charts,
		Tables:         Sections(in),
		Data:           map[string]any{"charts": charts},
		CSS:            template.CSS(pageCSS),
		Guard:          template.JS(guardJS),
		ECharts:        template.JS(echartsJS),
		App:            template.JS(appJS),
		EChartsVersion: EChartsVersion,
	}
	return page.Execute(w, d)
}
