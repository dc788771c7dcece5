package prereq

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A skip call, in Go (t.Skip, b.Skipf, t.SkipNow) or JUnit (Assumptions).
var skipCall = regexp.MustCompile(`\.Skip(f|Now)?\(|Assumptions\.assume|\bassume(True|False|That)\(`)

// What a skip for something not installed or not built says. A skip for
// the kind of host (cgroup v1 or v2, no IPv6 loopback), for -short or in a
// helper process says none of these.
var prerequisiteWords = regexp.MustCompile(`(?i)install|missing|not built|make workloads|needs root|` +
	`\bjdk|java|javac|jcmd|temurin|chromium|postgres|initdb|\bwrk\b|\bhey\b|\bab\b|hyperfine|\bjq\b`)

// A skip whose reason is computed (or absent, as in SkipNow) could be for
// anything, so it is refused too.
var literalReason = regexp.MustCompile(`\.Skip(f)?\("`)

// TestNoSkipForMissingPrerequisite keeps every test in the repository from
// skipping because something is not installed: under make test that must
// fail (with this package's line), or the suite passes untested.
func TestNoSkipForMissingPrerequisite(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "target" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		// Go test helpers live in non-test files too (hsperf/jvmtest).
		if !strings.HasSuffix(p, ".go") && !(strings.HasSuffix(p, ".java") && strings.Contains(p, "/src/test/")) {
			return nil
		}
		if p == filepath.Join(root, "internal/prereq/noskip_test.go") {
			return nil
		}
		n++
		return scanSkips(t, root, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("scanned only %d test files under %s", n, root)
	}
}

// skipFindings lists the lines of one test file that skip for a missing
// prerequisite or for a reason it cannot read.
func skipFindings(rel string, src *bufio.Scanner) []string {
	var out []string
	for line := 1; src.Scan(); line++ {
		l := src.Text()
		if !skipCall.MatchString(l) {
			continue
		}
		switch {
		case strings.Contains(l, "Skip") && !literalReason.MatchString(l):
			out = append(out, fmt.Sprintf("%s:%d: a skip with a computed reason (%s): fail on a missing prerequisite (internal/prereq)", rel, line, strings.TrimSpace(l)))
		case prerequisiteWords.MatchString(l) || !strings.Contains(l, "Skip"):
			out = append(out, fmt.Sprintf("%s:%d: skips on a missing prerequisite (%s): fail with internal/prereq instead", rel, line, strings.TrimSpace(l)))
		}
	}
	return out
}

func scanSkips(t *testing.T, root, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	rel, _ := filepath.Rel(root, p)
	sc := bufio.NewScanner(f)
	for _, f := range skipFindings(rel, sc) {
		t.Error(f)
	}
	return sc.Err()
}

func TestSkipFindings(t *testing.T) {
	src := strings.Join([]string{
		`	t.Skip("-short: skipping the browser")`,          // an explicit opt-out
		`	t.Skip("host is not cgroup v1")`,                 // the kind of host
		`	t.Skip("helper process for TestX")`,              // a re-exec guard
		`	t.Skip("no chromium: /usr/bin/chromium absent")`, // 4
		`		b.Skipf("JDK %s not installed", path)`,          // 5
		`	t.Skip(err)`, // 6
		`	t.SkipNow()`, // 7
		`	t.Skip("needs root to create cgroups")`,           // 8
		`        Assumptions.assumeTrue(bin != null, "x");`, // 9
	}, "\n")
	got := skipFindings("x_test.go", bufio.NewScanner(strings.NewReader(src)))
	var lines []string
	for _, f := range got {
		lines = append(lines, strings.SplitN(f, ":", 3)[1])
	}
	if want := "4 5 6 7 8 9"; strings.Join(lines, " ") != want {
		t.Errorf("flagged lines %v, want %s:\n%s", lines, want, strings.Join(got, "\n"))
	}
}
