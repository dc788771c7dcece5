package report

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// hostile strings a user could put in an app name or an option set name.
const (
	evilApp = `</script><img src=x onerror="document.body.setAttribute('data-pwned','app')">`
	evilJVM = `set:"><svg onload="document.body.setAttribute('data-pwned','jvm')"></svg><!--`
	evilNMT = `<script>document.body.setAttribute('data-pwned','nmt')</script>`
)

// hostileInput is every fixture trial in one report (so every chart kind
// appears), with hostile names.
func hostileInput(t *testing.T) Input {
	db := fixtureDB(t)
	var in Input
	for _, ref := range []string{"minmem-filecache", "sweep-filecache", "compare-seed001", "minmem-styles"} {
		in.Trials = append(in.Trials, loadInput(t, db, ref).Trials...)
	}
	for i, r := range in.Trials {
		r.Spec.AppName = evilApp
		if i%7 == 1 {
			r.Spec.JVM = evilJVM
		}
		if r.NMT != nil {
			r.NMT[evilNMT] = trial.NMT{Committed: 3 << 20}
		}
		for j := range r.Series {
			if r.Series[j].NMT != nil {
				r.Series[j].NMT[evilNMT] = 3 << 20
			}
		}
		r.Failed = []string{"</td></tr></table><b>broken</b>"}
	}
	in.Meta.Name = `</title><script>alert(1)</script>`
	return in
}

func render(t *testing.T, in Input) string {
	t.Helper()
	var buf bytes.Buffer
	if err := HTML(&buf, in, "test"); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestHTMLEscapesHostileNames(t *testing.T) {
	page := render(t, hostileInput(t))
	// Exactly our four script elements (guard, data, echarts, app): no name
	// opened or closed one.
	if n := strings.Count(strings.ToLower(page), "<script"); n != 4 {
		t.Errorf("page has %d <script> tags, want 4", n)
	}
	if n := strings.Count(strings.ToLower(page), "</script"); n != 4 {
		t.Errorf("page has %d </script> tags, want 4", n)
	}
	for _, bad := range []string{"<img src=x", "<svg onload", "<b>broken</b>", "</title><script>", "<!--"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains raw %q", bad)
		}
	}
	// The data block is valid JSON that still holds the names verbatim.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="jvmfit-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data block")
	}
	var data struct {
		Charts []struct {
			Bars    []bars      `json:"bars"`
			Choices []nmtChoice `json:"choices"`
		} `json:"charts"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("data block is not JSON: %v", err)
	}
	found, inSeries := false, false
	for _, c := range data.Charts {
		for _, b := range c.Bars {
			if b.Name == evilNMT {
				found = true
			}
		}
		for _, ch := range c.Choices {
			for _, s := range ch.Series {
				inSeries = inSeries || s.Name == evilNMT
			}
		}
	}
	if !inSeries {
		t.Error("the hostile NMT name did not survive into the NMT-over-time data")
	}
	if !found {
		t.Error("the hostile NMT name did not survive into the chart data (escaping must not mangle data)")
	}
	// Visible text is escaped, not dropped.
	if !strings.Contains(page, "&lt;/script&gt;&lt;img src=x") {
		t.Error("escaped app name missing from the tables")
	}
}

func TestHTMLIsOffline(t *testing.T) {
	page := render(t, loadInput(t, fixtureDB(t), "compare-seed001"))
	// No element of the page fetches anything (the library's own code may
	// hold markup strings, so script bodies are left out of the check).
	markup := regexp.MustCompile(`(?s)<script([^>]*)>.*?</script>`).ReplaceAllString(page, "<script$1></script>")
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe|object|embed)[^>]+(src|href|data)=`).FindString(markup); m != "" {
		t.Errorf("page loads an external resource: %s", m)
	}
	if !strings.Contains(page, "default-src 'none'") {
		t.Error("page lacks the CSP that forbids network access")
	}
	if len(page) < 900_000 {
		t.Errorf("page is %d bytes: ECharts not embedded?", len(page))
	}
}

func TestChartsPerKind(t *testing.T) {
	db := fixtureDB(t)
	titles := func(ref string) []string {
		var out []string
		for _, c := range buildCharts(loadInput(t, db, ref)) {
			out = append(out, c.Title)
		}
		return out
	}
	want := map[string][]string{
		"sweep-filecache":  {"Throughput against rate", "Latency against rate", "Success against rate", "Memory over time", "Heap over time"},
		"minmem-filecache": {"OK/KO by memory limit", "Minimum OK limit per mode"},
		"compare-seed001": {"Live set and mapped heap by configuration", "Memory over time", "Heap over time",
			"Native memory over time (NMT, committed): set:pardef", "Native memory over time (NMT, committed): set:paropt", "Native memory at the end of each trial (NMT, committed)"},
		"minmem-styles": {"OK/KO by memory limit", "Minimum OK limit per mode", "Memory over time", "Heap over time",
			"Native memory over time (NMT, committed): default", "Native memory over time (NMT, committed): jvmfit",
			"Native memory over time (NMT, committed): runjava", "Native memory over time (NMT, committed): paketo",
			"Native memory over time (NMT, committed): ubi", "Native memory at the end of each trial (NMT, committed)"},
	}
	for ref, w := range want {
		if got := titles(ref); strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("%s charts = %q, want %q", ref, got, w)
		}
	}
	in := loadInput(t, db, "minmem-filecache")
	g := okGrid(sortedBySpec(in.Trials), varying(in.Trials))
	// default: 6 limits, jvmfit: 5 limits, 128Mi shared: 10 across.
	if len(g.XCats) != 10 || len(g.YCats) != 2 || len(g.Cells) != 11 {
		t.Fatalf("grid %d x %d with %d cells", len(g.XCats), len(g.YCats), len(g.Cells))
	}
	if g.XCats[0] != "96Mi" || g.YCats[0] != "default" || g.YCats[1] != "jvmfit" {
		t.Errorf("grid axes %q / %q", g.XCats, g.YCats)
	}
}

// TestHTMLInChromium renders the page in headless Chromium: every chart
// must initialise, the console must stay clean, and the hostile names must
// not run. The screenshot is kept in testdata/out for a human to look at.
func TestHTMLInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the browser")
	}
	bin := chromium()
	if bin == "" {
		prereq.Fail(t, "chromium (/usr/bin/chromium)", prereq.Installer)
	}
	dir := t.TempDir()
	db := fixtureDB(t)
	tuneDB, _ := tuneFixtureDB(t)
	cases := []struct {
		name string
		ins  []Input
	}{
		{"sweep", []Input{loadInput(t, db, "sweep-filecache")}},
		{"minmem", []Input{loadInput(t, db, "minmem-filecache")}},
		{"styles", []Input{loadInput(t, db, "minmem-styles")}},
		{"tune", []Input{loadInput(t, tuneDB, "tune-filecache")}},
		{"hostile-all", []Input{hostileInput(t)}},
		{"book", bookInputs(t, db)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkPage(t, bin, dir, c.name, c.ins) })
	}
}

// checkPage renders the inputs as one page, opens it in Chromium with
// #exercise and checks what the page reports on <body>; it keeps the page
// and a screenshot in testdata/out.
func checkPage(t *testing.T, bin, dir, name string, ins []Input) {
	file := filepath.Join(dir, name+".html")
	var page bytes.Buffer
	if err := HTMLAll(&page, ins, "test"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	charts := 0
	for _, in := range ins {
		charts += len(buildCharts(in))
	}
	// #exercise tries every menu choice and draws every trial
	// (report.js): the paths a reader's clicks take.
	dom := runChromium(t, bin, "--dump-dom", "file://"+file+"#exercise")
	body := regexp.MustCompile(`<body[^>]*>`).FindString(dom)
	if body == "" {
		t.Fatalf("no <body> in the dumped DOM:\n%.2000s", dom)
	}
	if strings.Contains(body, "data-errors") {
		t.Errorf("page reported errors: %s", body)
	}
	if strings.Contains(body, "data-pwned") {
		t.Errorf("hostile markup ran: %s", body)
	}
	if want := `data-charts-ready="` + itoa(charts) + `"`; !strings.Contains(body, want) || charts < 1 {
		t.Errorf("want %s (%d charts), body is %s", want, charts, body)
	}
	if want := `data-shown-lines="` + itoa(shownLines(ins)) + `"`; !strings.Contains(body, want) {
		t.Errorf("want %s (the lines of the trials each chart opens on), body is %s", want, body)
	}
	if want := `data-exercised="` + itoa(exercises(ins)) + `"`; !strings.Contains(body, want) {
		t.Errorf("want %s, body is %s", want, body)
	}
	if n, want := strings.Count(dom, `class="chooser"`), choosers(ins); n != want {
		t.Errorf("%d trial menus, want %d", n, want)
	}
	// ECharts draws each chart into a canvas inside its div.
	if n := strings.Count(dom, "<canvas"); n < charts {
		t.Errorf("%d canvases for %d charts", n, charts)
	}
	png := filepath.Join(dir, name+".png")
	runChromium(t, bin, "--screenshot="+png, "--window-size=1400,3000", "file://"+file)
	st, err := os.Stat(png)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	// A blank 1400x3000 page compresses to a few KB; charts and
	// tables make it far larger.
	if st.Size() < 60_000 {
		t.Errorf("screenshot is only %d bytes: page blank?", st.Size())
	}
	keep := filepath.Join("testdata", "out")
	os.MkdirAll(keep, 0o755)
	if b, err := os.ReadFile(png); err == nil {
		os.WriteFile(filepath.Join(keep, name+".png"), b, 0o644)
	}
	os.WriteFile(filepath.Join(keep, name+".html"), page.Bytes(), 0o644)
	t.Logf("%s: %d charts, page %d bytes, screenshot %d bytes", name, charts, page.Len(), st.Size())
}

func choosers(ins []Input) int {
	n := 0
	for _, in := range ins {
		for _, c := range buildCharts(in) {
			if len(c.Choices) > 1 {
				n++
			}
		}
	}
	return n
}

// shownLines counts the lines of the trials the grouped time charts open
// on.
func shownLines(ins []Input) int {
	n := 0
	for _, in := range ins {
		for _, c := range buildCharts(in) {
			for _, s := range c.Series {
				if len(c.Groups) > 0 && c.Selected[s.Name] {
					n++
				}
			}
		}
	}
	return n
}

func exercises(ins []Input) int {
	n := 0
	for _, in := range ins {
		for _, c := range buildCharts(in) {
			if len(c.Choices) > 1 {
				n += len(c.Choices)
			}
			if len(c.Groups) > 0 {
				n++
			}
		}
	}
	return n
}

func chromium() string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func runChromium(t *testing.T, bin string, args ...string) string {
	t.Helper()
	profile := t.TempDir()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir=" + profile, "--virtual-time-budget=5000"}
	cmd := exec.Command(bin, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "HOME="+profile)
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
		}
	case <-timeAfter(90):
		cmd.Process.Kill()
		<-done
		t.Fatalf("chromium %v timed out\n%s", args, errb.String())
	}
	return out.String()
}
