package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/load"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

func init() { commands = append(commands, newLoadCmd) }

type loadFlags struct {
	scenario    string
	vars        []string
	target      string
	rate        float64
	duration    time.Duration
	requests    int64
	concurrency int
	warmup      time.Duration
	method      string
	headers     []string
	body        string
	bodyFile    string
	expect      []int
	timeout     time.Duration
	maxInflight int
	json        bool
	hist        string
	histJSON    string
	allowRemote bool
}

func newLoadCmd() *cobra.Command {
	f := &loadFlags{}
	cmd := &cobra.Command{
		Use:   "load [flags] [URL]",
		Short: "Drive HTTP load: open model (no coordinated omission) or closed model",
		Long: `Drive HTTP load against a local service and report latency percentiles
(HdrHistogram), throughput and errors.

  jvmfit load --rate 500 --duration 10s http://127.0.0.1:8080/status    open model
  jvmfit load --concurrency 16 --requests 100000 http://127.0.0.1:8080/ closed model
  jvmfit load --scenario scenario.yaml --var workers=8 --rate 200       scripted

In the open model each request has an intended start on a fixed schedule and
its latency counts from that time, so a stalled server shows in the tail.
Targets must be on loopback unless --allow-remote is given.
Scenario format: docs/scenario.md.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runLoad(cmd, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.scenario, "scenario", "s", "", "scenario YAML file (instead of a URL)")
	fl.StringArrayVar(&f.vars, "var", nil, "scenario variable `k=v` (repeatable)")
	fl.StringVar(&f.target, "target", "", "where to send the scenario: replaces its base's host and port (and its path, if the URL has one)")
	fl.Float64VarP(&f.rate, "rate", "r", 0, "open model: requests per second (overrides the scenario's open phases)")
	fl.DurationVarP(&f.duration, "duration", "d", 0, "length of the measured phase (default 10s for a URL without --requests)")
	fl.Int64VarP(&f.requests, "requests", "n", 0, "total requests for a URL (closed: like ab -n; open: stop after N)")
	fl.IntVarP(&f.concurrency, "concurrency", "c", 0, "closed model: concurrent workers (like ab -c); with --scenario, the workers of every recorded phase")
	fl.DurationVar(&f.warmup, "warmup", 0, "unrecorded warm-up before measuring (same load)")
	fl.StringVarP(&f.method, "method", "X", "GET", "HTTP method for a URL")
	fl.StringArrayVarP(&f.headers, "header", "H", nil, "request header `'Name: value'` for a URL (repeatable)")
	fl.StringVar(&f.body, "body", "", "request body for a URL")
	fl.StringVar(&f.bodyFile, "body-file", "", "file whose content is the request body for a URL")
	fl.IntSliceVar(&f.expect, "expect", nil, "status codes that count as success for a URL (default any 2xx)")
	fl.DurationVar(&f.timeout, "timeout", 0, "per-request timeout (default 30s)")
	fl.IntVar(&f.maxInflight, "max-inflight", 0, "open model: cap on requests in flight (default 10000)")
	fl.BoolVar(&f.json, "json", false, "print the report as JSON")
	fl.StringVar(&f.hist, "hist", "", "write the HdrHistogram percentile distribution (ms) of the measured phases to `FILE`")
	fl.StringVar(&f.histJSON, "hist-json", "", "write every phase's histogram as JSON to `FILE`")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "allow targets that are not on loopback")
	return cmd
}

func runLoad(cmd *cobra.Command, f *loadFlags, args []string) error {
	ctx := cmd.Context()
	fl := cmd.Flags()
	if fl.Changed("rate") && f.rate <= 0 {
		return usagef("--rate must be > 0 requests per second (got %g)", f.rate)
	}
	if fl.Changed("concurrency") && f.concurrency < 1 {
		return usagef("--concurrency must be ≥ 1 (got %d)", f.concurrency)
	}
	if fl.Changed("requests") && f.requests < 1 {
		return usagef("--requests must be ≥ 1 (got %d)", f.requests)
	}
	if fl.Changed("duration") && f.duration <= 0 {
		return usagef("--duration must be > 0 (got %s)", f.duration)
	}
	if f.timeout < 0 || f.warmup < 0 || f.maxInflight < 0 {
		return usagef("--timeout, --warmup and --max-inflight must not be negative")
	}
	sc, opts, err := loadScenario(fl.Changed, f, args)
	if err != nil {
		return err
	}
	if f.timeout > 0 {
		sc.Timeout = f.timeout
	}
	if err := load.Validate(ctx, sc, opts); err != nil {
		return asUsage(err)
	}
	if err := load.Reachable(ctx, sc, opts); err != nil {
		return asUsage(err)
	}
	if isTerminal(os.Stderr) {
		opts.Progress = os.Stderr
	}
	res, err := load.Run(ctx, sc, opts)
	if res == nil {
		return err
	}
	if werr := writeLoadOutputs(cmd.OutOrStdout(), f, res); werr != nil {
		return werr
	}
	return err
}

// loadScenario builds the scenario and options from a URL or a file.
func loadScenario(changed func(string) bool, f *loadFlags, args []string) (*scenario.Scenario, load.Options, error) {
	opts := load.Options{Rate: f.rate, Duration: f.duration, Warmup: f.warmup, MaxInflight: f.maxInflight,
		AllowRemote: f.allowRemote, Base: f.target}
	if f.scenario != "" {
		sc, err := scenarioFile(changed, f, args)
		opts.Workers = f.concurrency
		return sc, opts, err
	}
	sc, err := singleURL(changed, f, args)
	opts.Rate, opts.Duration = 0, 0 // already in the phase
	return sc, opts, err
}

// scenarioFile is --scenario FILE with its --var values.
func scenarioFile(changed func(string) bool, f *loadFlags, args []string) (*scenario.Scenario, error) {
	if len(args) > 0 {
		return nil, usagef("give a URL or --scenario, not both (use --target to point the scenario elsewhere)")
	}
	for _, name := range []string{"requests", "method", "header", "body", "body-file", "expect"} {
		if changed(name) {
			return nil, usagef("--%s applies to a single URL; with --scenario set it in the scenario file", name)
		}
	}
	vars, err := scenario.ParseVars(f.vars)
	if err != nil {
		return nil, asUsage(err)
	}
	sc, err := scenario.Load(f.scenario, vars)
	if err != nil {
		return nil, asUsage(err)
	}
	return sc, nil
}

// singleURL is one request, given on the command line, as a one-phase
// scenario in the model the flags choose.
func singleURL(changed func(string) bool, f *loadFlags, args []string) (*scenario.Scenario, error) {
	if len(args) == 0 {
		return nil, usagef("give a URL (e.g. http://127.0.0.1:8080/status) or --scenario FILE")
	}
	if len(f.vars) > 0 || f.target != "" {
		return nil, usagef("--var and --target apply to --scenario; for a URL put everything in the URL")
	}
	spec, err := requestSpec(f, args[0])
	if err != nil {
		return nil, err
	}
	sc, err := scenario.Single(spec)
	if err != nil {
		return nil, asUsage(fmt.Errorf("URL %s: %w", args[0], err))
	}
	p := sc.Phases[0]
	p.Duration, p.Requests = f.duration, f.requests
	switch {
	case changed("rate"):
		if changed("concurrency") {
			return nil, usagef("--concurrency is for the closed model; with --rate, cap requests in flight with --max-inflight")
		}
		p.Model, p.Rate = scenario.Open, f.rate
	case changed("concurrency") || changed("requests"):
		p.Model, p.Workers = scenario.Closed, max(1, f.concurrency)
	default:
		return nil, usagef("give --rate N (open model, requests per second) or --concurrency N (closed model)")
	}
	if p.Duration == 0 && p.Requests == 0 {
		p.Duration = 10 * time.Second
	}
	return sc, nil
}

// requestSpec is the request the URL, --method, --header, --body and
// --expect describe.
func requestSpec(f *loadFlags, url string) (scenario.RequestSpec, error) {
	spec := scenario.RequestSpec{Method: strings.ToUpper(f.method), URL: url, Expect: f.expect, Headers: map[string]string{}}
	for _, h := range f.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return spec, usagef("--header %q: want 'Name: value'", h)
		}
		spec.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	switch {
	case f.body != "" && f.bodyFile != "":
		return spec, usagef("give --body or --body-file, not both")
	case f.body != "":
		spec.Body = []byte(f.body)
	case f.bodyFile != "":
		b, err := os.ReadFile(f.bodyFile)
		if err != nil {
			return spec, usagef("--body-file: %v", err)
		}
		spec.Body = b
	}
	return spec, nil
}

func writeLoadOutputs(w io.Writer, f *loadFlags, res *record.Result) error {
	if f.hist != "" {
		if err := writeFile(f.hist, func(w io.Writer) error { return record.WritePercentiles(w, res.TotalHistogram()) }); err != nil {
			return err
		}
	}
	if f.histJSON != "" {
		out := map[string]*record.HistogramJSON{}
		for _, ph := range res.Histograms {
			j, err := record.ToJSON(ph.All)
			if err != nil {
				return err
			}
			out[ph.Phase] = j
			for name, h := range ph.ByRequest {
				if j, err = record.ToJSON(h); err != nil {
					return err
				}
				out[ph.Phase+"/"+name] = j
			}
		}
		j, err := record.ToJSON(res.TotalHistogram())
		if err != nil {
			return err
		}
		out["total"] = j
		if err := writeFile(f.histJSON, func(w io.Writer) error {
			e := json.NewEncoder(w)
			e.SetIndent("", "  ")
			return e.Encode(out)
		}); err != nil {
			return err
		}
	}
	if f.json {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(struct {
			*record.Report
			Phases []*record.Report `json:"phases"`
		}{res.Total, res.Phases})
	}
	for i, r := range res.Phases {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := record.WriteText(w, r); err != nil {
			return err
		}
	}
	if len(res.Phases) > 1 {
		fmt.Fprintln(w)
		return record.WriteText(w, res.Total)
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return usagef("cannot write %s: %v", path, err)
	}
	if err := write(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
