package report

import (
	"io"
	"regexp"
	"strings"
	"sync"
)

// Table is one rendered table, shared by the Markdown and HTML outputs so
// both always show the same figures.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Notes  []string // lines printed under the table
}

// markdownCell keeps a cell on one line and inert: app names and options
// come from users, and Markdown renders raw HTML and splits on pipes. Only
// a '<' that could open a tag or comment is escaped, so "p99 < 200ms"
// stays readable in a terminal.
var markdownCell = markdownEscaper{strings.NewReplacer(
	"\\", "\\\\", "|", "\\|", "\r\n", " ", "\n", " ", "\r", " ",
)}

type markdownEscaper struct{ r *strings.Replacer }

var tagStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<([A-Za-z/!?])`) })

func (m markdownEscaper) Replace(s string) string {
	return tagStart().ReplaceAllString(m.r.Replace(s), "&lt;$1")
}

func (t Table) markdown(w io.Writer) error {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("### " + markdownCell.Replace(t.Title) + "\n\n")
	}
	row := func(cells []string) {
		b.WriteString("| ")
		for i, c := range cells {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(markdownCell.Replace(c))
		}
		b.WriteString(" |\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString(markdownCell.Replace(n) + "\n")
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
