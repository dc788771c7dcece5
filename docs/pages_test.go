package docs_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A reference page (README.md and docs/*.md, not the evidence pages under
// docs/measured/) is read in minutes: it stays under maxReferenceLines and
// states today's behaviour, so it never quotes the issue that changed it.
const maxReferenceLines = 400

var issueRef = regexp.MustCompile(`(?i)\bissues? #?\d+\b|\(#\d+\)|\btask #?\d+\b`)

// referenceProblems: why doc, a reference page, is not one.
func referenceProblems(doc string) []string {
	var out []string
	lines := strings.Split(strings.TrimRight(doc, "\n"), "\n")
	if len(lines) > maxReferenceLines {
		out = append(out, fmt.Sprintf("%d lines, over %d: move the evidence to docs/measured/ or a concept to its own page", len(lines), maxReferenceLines))
	}
	for i, l := range lines {
		if m := issueRef.FindString(l); m != "" {
			out = append(out, fmt.Sprintf("line %d quotes %q: say what jvmfit does today, not which issue changed it", i+1, m))
		}
	}
	return out
}

func TestReferencePagesAreShortAndCurrent(t *testing.T) {
	for _, rel := range allDocs(t) {
		if strings.HasPrefix(rel, "docs/measured/") || rel == "ARCHITECTURE.md" {
			continue
		}
		for _, p := range referenceProblems(readDoc(t, rel)) {
			t.Errorf("%s: %s", rel, p)
		}
	}
}

func TestReferenceRule(t *testing.T) {
	long := strings.Repeat("a line\n", maxReferenceLines+1)
	for _, c := range []struct {
		doc  string
		want int
	}{
		{"the heap is 3/4 of the live set", 0},
		{"since issue 21 the heap is larger", 1},
		{"(Issue 13's goal)", 1},
		{"fixed in (#42)", 1},
		{"kubernetes/autoscaler#5029 asks for it", 0},
		{"an issue with the heap", 0},
		{long, 1},
		{strings.Repeat("a line\n", maxReferenceLines), 0},
	} {
		if got := referenceProblems(c.doc); len(got) != c.want {
			t.Errorf("%.40q: %v, want %d problem(s)", c.doc, got, c.want)
		}
	}
}
