package profile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// BadInput is an error in what the user pointed jvmfit at (no JVM there,
// no such series, nothing listening): the command exits 2 with it.
type BadInput struct{ error }

func badInput(format string, a ...any) error { return BadInput{fmt.Errorf(format, a...)} }

// IsBadInput says whether err is the user's input's fault.
func IsBadInput(err error) bool { return errors.As(err, &BadInput{}) }

// Window is how long to sample and how often.
type Window struct {
	Duration, Interval time.Duration
}

func (w Window) every() time.Duration {
	if w.Interval > 0 {
		return w.Interval
	}
	return 5 * time.Second
}

// FromScrape reads the service's own metrics endpoint (Prometheus text
// or OpenMetrics) now and then every interval for the duration, and
// gives the peaks of what its JVM metrics say (metrics.go names them).
//
// An endpoint that asks for basic authentication gets the URL's user and
// password (http://user:password@host/...), or, for a URL with a user and
// no password, the password in $JVMFIT_SCRAPE_PASSWORD: unlike a command
// line, the environment is not readable by other local users. What is
// printed or stored names the URL without its password.
func FromScrape(ctx context.Context, rawURL string, w Window) (*plan.Profile, []string, error) {
	target, url, err := scrapeTarget(rawURL)
	if err != nil {
		return nil, nil, err
	}
	client := &http.Client{Timeout: 10 * time.Second}
	var rs []reading
	end := time.Now().Add(w.Duration)
	for {
		pts, err := scrapeOnce(ctx, client, target, url)
		if err != nil {
			if len(rs) == 0 || ctx.Err() != nil {
				return nil, nil, err
			}
			// A scrape that fails mid-window (a restart) ends it: the peaks so far stand.
			break
		}
		r := read(pts)
		if !r.hasJVM() {
			return nil, nil, badInput("%s has no JVM metrics (no jvm_memory_used_bytes{id=...} of Micrometer, no jvm_memory_pool_*_used of client_java or the JMX exporter): give the service's Prometheus endpoint, such as /actuator/prometheus or /q/metrics", url)
		}
		rs = append(rs, r)
		if !time.Now().Add(w.every()).Before(end.Add(time.Second)) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(w.every()):
		}
	}
	p := peaks(rs, false)
	p.Source, p.From, p.Window = "scrape", url, w.Duration.String()
	return p, metricNotes(p), p.Validate()
}

// ScrapePasswordEnv holds the password for a --scrape URL that names a
// user and no password.
const ScrapePasswordEnv = "JVMFIT_SCRAPE_PASSWORD"

// scrapeTarget gives the URL to request, with the password from the
// environment where the URL has a user and none, and the URL to show.
func scrapeTarget(raw string) (*neturl.URL, string, error) {
	u, err := neturl.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		shown := raw // unparsed: shown unless it may hold a password
		if err == nil {
			shown = u.Redacted()
		} else if strings.Contains(raw, "@") {
			shown = "URL"
		}
		return nil, "", badInput("--scrape %s: not an http:// or https:// URL with a host (give the service's metrics URL, such as http://127.0.0.1:8080/actuator/prometheus)", shown)
	}
	if u.User != nil {
		if _, has := u.User.Password(); !has {
			if pw, ok := os.LookupEnv(ScrapePasswordEnv); ok {
				u.User = neturl.UserPassword(u.User.Username(), pw)
			}
		}
	}
	return u, u.Redacted(), nil
}

func scrapeOnce(ctx context.Context, client *http.Client, target *neturl.URL, url string) ([]point, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return nil, badInput("--scrape %s: %v (give an http:// URL)", url, err)
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4;q=1,application/openmetrics-text;q=0.5,*/*;q=0.1")
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, badInput("cannot reach %s: %v (is the service up, and is this its metrics URL?)", url, unwrapURL(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, badInput("reading %s: %v", url, err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		how := "give its user in the URL (http://user@host/...) and the password in $" + ScrapePasswordEnv
		if _, has := target.User.Password(); target.User != nil && !has {
			how = "give the password in $" + ScrapePasswordEnv
		} else if target.User != nil {
			how = "check the user and password given"
		}
		return nil, badInput("%s answered %s: the endpoint asks who is scraping: %s", url, resp.Status, how)
	case resp.StatusCode != http.StatusOK:
		return nil, badInput("%s answered %s: give the service's Prometheus metrics URL", url, resp.Status)
	}
	return parseText(url, body)
}

// parseText reads Prometheus text with expfmt, the JVM's families only:
// the lines of the others are dropped first, so that what jvmfit does not
// read (OpenMetrics' info and stateset types, # UNIT, # EOF, exemplars)
// cannot fail the parse.
func parseText(url string, body []byte) ([]point, error) {
	var clean bytes.Buffer
	for _, line := range strings.Split(string(body), "\n") {
		if !wanted(line) {
			continue
		}
		if i := strings.Index(line, " # {"); i > 0 && !strings.HasPrefix(line, "#") {
			line = line[:i] // an exemplar
		}
		clean.WriteString(line)
		clean.WriteByte('\n')
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(&clean)
	if err != nil {
		return nil, badInput("%s is not Prometheus text: %v (give the service's Prometheus metrics URL)", url, err)
	}
	var pts []point
	for name, f := range fams {
		if !jvmNames[name] {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			var v float64
			switch {
			case m.Gauge != nil:
				v = m.Gauge.GetValue()
			case m.Counter != nil:
				v = m.Counter.GetValue()
			case m.Untyped != nil:
				v = m.Untyped.GetValue()
			default:
				continue
			}
			pts = append(pts, point{name: name, labels: labels, value: v})
		}
	}
	return pts, nil
}

// wanted: the line is a sample, # HELP or # TYPE of a family jvmfit reads.
func wanted(line string) bool {
	var name string
	if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
		name, _, _ = strings.Cut(rest, " ")
	} else if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
		name, _, _ = strings.Cut(rest, " ")
	} else if strings.HasPrefix(line, "#") {
		return false
	} else {
		name = strings.TrimSpace(line[:strings.IndexAny(line+" ", "{ ")])
	}
	return jvmNames[name] || containerNames[name]
}

// unwrapURL drops net/http's `Get "URL": ` prefix, which the message
// already names.
func unwrapURL(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		return ue.Unwrap()
	}
	return err
}

// metricNotes are the caveats of a profile from JVM metrics.
func metricNotes(p *plan.Profile) []string {
	var n []string
	if p.Sources["liveHeapBytes"] == plan.SourceUnmeasured {
		n = append(n, "liveHeapBytes unmeasured: no old or concurrent collection in the window reported a live set (sample longer, or under more load); the heap is planned as without a profile")
	}
	if p.Sources["peakUncappedNativeBytes"] == plan.SourceUnmeasured {
		n = append(n, "peakUncappedNativeBytes unmeasured: the metrics have no resident size; the planner uses its defaults for native memory (give --prometheus with cAdvisor, or --pid on the host)")
	}
	if p.Sources["peakUncappedNativeBytes"] == plan.SourceEstimated {
		n = append(n, "peakUncappedNativeBytes estimated from a size that includes file pages: shown, not planned from")
	}
	return n
}
