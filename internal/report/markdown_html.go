package report

import (
	"bytes"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// The conclusion of an experiment (the search, the recommendation) is
// written once, in Markdown, for the terminal and report.md; the HTML page
// shows the same text rendered. goldmark leaves raw HTML out, so names and
// paths in the text cannot inject markup.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table))

// renderMarkdown returns md as HTML; on a rendering error, the text as is.
func renderMarkdown(md string) template.HTML {
	var b bytes.Buffer
	if err := markdown.Convert([]byte(md), &b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(md) + "</pre>")
	}
	return template.HTML(b.String())
}
