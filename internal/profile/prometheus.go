package profile

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// maxPoints keeps a range query under Prometheus's 11,000 points a series.
const maxPoints = 10000

// Pod is one pod's (or, without a pod label, one instance's) profile.
type Pod struct {
	Name    string
	Profile *plan.Profile
}

// FromPrometheus reads the JVM metrics of the series selector matches
// from a Prometheus server over the last rng, one profile per pod (the
// pod label, else instance), and the profile covering them all (the
// highest figure of each field over the pods). cAdvisor's
// container_memory_rss (else _working_set_bytes) of the same pods gives
// the native part.
func FromPrometheus(ctx context.Context, server, selector string, rng time.Duration) (*plan.Profile, []Pod, []string, error) {
	matchers, err := selectorMatchers(selector)
	if err != nil {
		return nil, nil, nil, err
	}
	if _, err := url.ParseRequestURI(server); err != nil || !strings.HasPrefix(server, "http") {
		return nil, nil, nil, badInput("--prometheus %s: not an http:// URL of a Prometheus server", server)
	}
	c, err := api.NewClient(api.Config{Address: server})
	if err != nil {
		return nil, nil, nil, badInput("--prometheus %s: %v", server, err)
	}
	q := v1.NewAPI(c)
	end := time.Now()
	step := max(rng/maxPoints, time.Second).Truncate(time.Second)
	r := v1.Range{Start: end.Add(-rng), End: end, Step: step}

	jvm, err := queryRange(ctx, q, server, `{__name__=~"`+namesRegex(jvmNames)+`"`+matchers+`}`, r)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(jvm) == 0 {
		return nil, nil, nil, badInput("Prometheus %s has no JVM series matching %s in the last %s (no jvm_memory_used_bytes, jvm_memory_pool_*_used, ...): check the selector's labels against the series' (curl '%s/api/v1/series?match[]=jvm_threads_peak_threads')", server, selector, rng, server)
	}
	byPod := map[string][]*model.SampleStream{}
	for _, s := range jvm {
		byPod[podOf(s.Metric)] = append(byPod[podOf(s.Metric)], s)
	}
	var podNames []string
	for name := range byPod {
		podNames = append(podNames, name)
	}
	sort.Strings(podNames)
	// cAdvisor's series carry the pod, not the app's labels: join on it.
	if pods := realPods(jvm); len(pods) > 0 {
		cq := `{__name__=~"` + namesRegex(containerNames) + `",pod=~"` + strings.Join(pods, "|") + `",container!="",container!="POD"}`
		cadv, err := queryRange(ctx, q, server, cq, r)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, s := range cadv {
			p := string(s.Metric["pod"])
			byPod[p] = append(byPod[p], s)
		}
	}
	var out []Pod
	var all []*plan.Profile
	for _, name := range podNames {
		p := peaks(instants(byPod[name]), true)
		p.Source, p.From, p.Window = "prometheus", name, rng.String()
		out = append(out, Pod{Name: name, Profile: p})
		all = append(all, p)
	}
	p := maxOver(all)
	p.Source, p.From, p.Window = "prometheus", server+" "+selector, rng.String()
	return p, out, metricNotes(p), p.Validate()
}

func queryRange(ctx context.Context, q v1.API, server, query string, r v1.Range) (model.Matrix, error) {
	v, _, err := q.QueryRange(ctx, query, r)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, badInput("cannot query Prometheus at %s: %v (is it a Prometheus server's URL?)", server, unwrapURL(err))
	}
	m, ok := v.(model.Matrix)
	if !ok {
		return nil, fmt.Errorf("prometheus %s answered a %s to a range query", server, v.Type())
	}
	return m, nil
}

// instants regroups one pod's series by timestamp: each step's readings.
func instants(series []*model.SampleStream) []reading {
	at := map[model.Time][]point{}
	for _, s := range series {
		labels := map[string]string{}
		for k, v := range s.Metric {
			labels[string(k)] = string(v)
		}
		name := labels["__name__"]
		for _, v := range s.Values {
			at[v.Timestamp] = append(at[v.Timestamp], point{name: name, labels: labels, value: float64(v.Value)})
		}
	}
	var rs []reading
	for _, pts := range at {
		rs = append(rs, read(pts))
	}
	return rs
}

func podOf(m model.Metric) string {
	if p := m["pod"]; p != "" {
		return string(p)
	}
	return string(m["instance"])
}

func realPods(m model.Matrix) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range m {
		if p := string(s.Metric["pod"]); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, regexQuote(p))
		}
	}
	sort.Strings(out)
	return out
}

func namesRegex(names map[string]bool) string {
	var n []string
	for k := range names {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, "|")
}

// selectorMatchers turns '{app="orders"}' into `,app="orders"`, to follow
// a metric's own matchers.
func selectorMatchers(sel string) (string, error) {
	s := strings.TrimSpace(sel)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", badInput("--selector %q: give label matchers in braces, such as '{app=\"orders\"}'", sel)
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	if inner == "" {
		return "", badInput("--selector {}: name at least one label, such as '{app=\"orders\"}'")
	}
	if strings.Contains(inner, "__name__") {
		return "", badInput("--selector %q: leave out __name__ (jvmfit picks the JVM metrics itself)", sel)
	}
	return "," + inner, nil
}

func regexQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\\\`, `.`, `\\.`, `|`, `\\|`, `(`, `\\(`, `)`, `\\)`, `"`, `\"`, `+`, `\\+`, `*`, `\\*`, `?`, `\\?`, `[`, `\\[`, `]`, `\\]`, `{`, `\\{`, `}`, `\\}`, `^`, `\\^`, `$`, `\\$`)
	return r.Replace(s)
}
