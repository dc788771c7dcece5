package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// A relative link in a doc ([text](page.md#anchor)) names a page that
// exists and a heading it has: pages move, and a link that lands nowhere is
// a reader lost.
var mdLink = regexp.MustCompile(`\]\(([^)\s#]+\.md)?(#[^)\s]*)?\)`)

func TestRelativeLinksResolve(t *testing.T) {
	slugs := map[string]map[string]bool{}
	for _, rel := range allDocs(t) {
		doc := readDoc(t, rel)
		for i, line := range strings.Split(doc, "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target, anchor := m[1], strings.TrimPrefix(m[2], "#")
				if target == "" && anchor == "" {
					continue
				}
				dest := filepath.ToSlash(filepath.Join(filepath.Dir(rel), target))
				if target == "" {
					target, dest = rel, rel
				}
				if _, err := os.Stat(filepath.Join("..", dest)); err != nil {
					t.Errorf("%s:%d: links to %s, which does not exist", rel, i+1, target)
					continue
				}
				if anchor == "" {
					continue
				}
				if slugs[dest] == nil {
					slugs[dest] = headingSlugs(readDoc(t, dest))
				}
				if !slugs[dest][anchor] {
					t.Errorf("%s:%d: links to %s#%s, and %s has no such heading", rel, i+1, target, anchor, dest)
				}
			}
		}
	}
}

// headingSlugs: the anchors GitHub gives a page's headings (lower case,
// punctuation dropped but '-' and '_', spaces to '-', a repeat numbered).
func headingSlugs(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		s := slug(strings.TrimLeft(line, "# "))
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && unicode.IsLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Side by side (`--parallel`)":                      "side-by-side---parallel",
		"The heap's floor with a profile":                  "the-heaps-floor-with-a-profile",
		"`jvmfit doctor`":                                  "jvmfit-doctor",
		"Without YAML: `--jar`, `--get`, `--arg`, `--env`": "without-yaml---jar---get---arg---env",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
