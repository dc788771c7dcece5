package docs_test

import (
	"strings"
)

// section returns the lines under the heading whose text is heading (with
// its #s), up to the next heading of any level; code fences are dropped.
func section(doc, heading string) ([]string, bool) {
	var out []string
	in, fence, found := false, false, false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if strings.HasPrefix(line, "#") {
			in = strings.TrimSpace(line) == heading
			found = found || in
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	return out, found
}

// table is a Markdown table: its header cells and rows of cells.
type table struct {
	header []string
	rows   [][]string
}

// tables returns the tables in lines, in order.
func tables(lines []string) []table {
	var out []table
	var cur *table
	for _, line := range lines {
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		cells := splitRow(line)
		switch {
		case cur == nil:
			out = append(out, table{header: cells})
			cur = &out[len(out)-1]
		case strings.Trim(strings.Join(cells, ""), "-: ") == "":
			// the |---| line
		default:
			cur.rows = append(cur.rows, cells)
		}
	}
	return out
}

// splitRow splits a table row on the | that are not escaped (\|).
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}
