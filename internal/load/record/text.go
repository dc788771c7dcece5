package record

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints a report in the spirit of vegeta's text report, with
// the tail percentiles that matter for SLOs and the open-model counts.
func WriteText(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	title := r.Phase
	if r.Model != "" {
		title += " (" + r.Model
		if r.TargetRate > 0 {
			title += fmt.Sprintf(", target %.6g/s", r.TargetRate)
		}
		title += ")"
	}
	fmt.Fprintf(tw, "Phase\t\t%s\n", title)
	fmt.Fprintf(tw, "Requests\t[total, rate, throughput]\t%d, %.2f, %.2f\n", r.Requests, r.Rate, r.Throughput)
	fmt.Fprintf(tw, "Duration\t[total]\t%s\n", round(r.Duration))
	l := r.Latencies
	fmt.Fprintf(tw, "Latencies\t[min, mean, 50, 90, 95, 99, 99.9, 99.99, max]\t%s\n", strings.Join([]string{
		round(l.Min), round(l.Mean), round(l.P50), round(l.P90), round(l.P95),
		round(l.P99), round(l.P999), round(l.P9999), round(l.Max)}, ", "))
	// Bytes as they crossed the connection, HTTP headers included; vegeta
	// counts bodies only, so the label says which.
	fmt.Fprintf(tw, "Bytes In (with headers)\t[total, mean]\t%d, %.2f\n", r.BytesIn, perReq(r.BytesIn, r.Requests))
	fmt.Fprintf(tw, "Bytes Out (with headers)\t[total, mean]\t%d, %.2f\n", r.BytesOut, perReq(r.BytesOut, r.Requests))
	fmt.Fprintf(tw, "Success\t[ratio]\t%.2f%%\n", 100*r.Success)
	if r.Model == modelOpen || r.Late > 0 || r.Dropped > 0 {
		fmt.Fprintf(tw, "Schedule\t[late, dropped]\t%d, %d\n", r.Late, r.Dropped)
	}
	if s := r.SendLateness; s != nil {
		fmt.Fprintf(tw, "Send lateness\t[50, 99, max]\t%s, %s, %s\n", round(s.P50), round(s.P99), round(s.Max))
	}
	fmt.Fprintf(tw, "Status Codes\t[code:count]\t%s\n", statusLine(r.StatusCodes))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "Error Set:")
	for _, e := range r.Errors {
		fmt.Fprintln(w, e)
	}
	if len(r.ByRequest) > 0 {
		names := make([]string, 0, len(r.ByRequest))
		for n := range r.ByRequest {
			names = append(names, n)
		}
		sort.Strings(names)
		tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "Request\trequests\tsuccess\tp50\tp99\tp99.9\tmax")
		for _, n := range names {
			b := r.ByRequest[n]
			fmt.Fprintf(tw, "%s\t%d\t%.2f%%\t%s\t%s\t%s\t%s\n", n, b.Requests, 100*b.Success,
				round(b.Latencies.P50), round(b.Latencies.P99), round(b.Latencies.P999), round(b.Latencies.Max))
		}
		return tw.Flush()
	}
	return nil
}

// modelOpen is the open model's name in Report.Model: only its phases
// have a schedule to report on.
const modelOpen = "open"

func perReq(b, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(b) / float64(n)
}

func statusLine(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s:%d", k, m[k]))
	}
	return strings.Join(parts, "  ")
}

// round keeps durations readable: µs precision below 1 s, ms above.
func round(d time.Duration) string {
	if d >= time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}
