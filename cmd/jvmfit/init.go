package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/scaffold"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func init() { commands = append(commands, newInitCmd) }

type initFlags struct {
	jar, image, command, name, out string
	slo, checkMemory, java, engine string
	getList, argList, envList      []string
	rate                           float64
	readyTimeout                   time.Duration
	force, noCheck                 bool
}

func newInitCmd() *cobra.Command {
	var f initFlags
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write app.yaml and scenario.yaml for your own service, and check them once",
		Long: `Look inside your jar (or take an image or a command), detect its framework
(Spring Boot, Quarkus, Micronaut, Helidon, or a plain main class on the JDK's
HTTP server), and write app.yaml and scenario.yaml that run as they are: the
port wiring, the readiness URL, a first scenario of one GET per --get (or the
framework's own health endpoint), a rate and an SLO. Then start the app once
under a generous limit to check the readiness URL and every request, and say
what was found and what to edit (docs/your-service.md).

An app whose framework is not recognised gets the files all the same, with
the guesses marked GUESS (exit 0).

Exit status: 0 written (and checked), 1 the check failed, 2 bad input or an
app that never answered its readiness URL.`,
		Example: `  jvmfit init --jar target/app.jar --get /api/items --rate 100
  jvmfit init --jar target/quarkus-app/quarkus-run.jar --out sizing/
  jvmfit init --command "java -jar app.jar --spring.profiles.active=prod"
  jvmfit init --image registry.example/team/app:1.4 --get /api/items`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runInit(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.jar, "jar", "", "the application's runnable jar (Quarkus: quarkus-app/quarkus-run.jar)")
	fl.StringVar(&f.image, "image", "", "a container image instead, NAME[:TAG] (docs/docker.md)")
	fl.StringVar(&f.command, "command", "", `a full command line instead, words separated by spaces, e.g. "java -jar app.jar --flag"`)
	fl.StringArrayVar(&f.getList, "get", nil, "a path the first scenario GETs, starting with '/' (repeatable; default: the framework's health endpoint)")
	fl.Float64Var(&f.rate, "rate", scaffold.DefaultRate, "req/s of the measured phase")
	fl.StringVar(&f.slo, "slo", scaffold.DefaultSLO, "the SLO written into app.yaml (docs/app.md)")
	fl.StringArrayVar(&f.argList, "arg", nil, "an argument for the app, after the port wiring (repeatable)")
	fl.StringArrayVar(&f.envList, "env", nil, "K=V in the app's environment (repeatable)")
	fl.StringVar(&f.name, "name", "", "the app's name (default: the jar's or image's)")
	fl.StringVar(&f.out, "out", ".", "directory for app.yaml and scenario.yaml")
	fl.BoolVar(&f.force, "force", false, "overwrite app.yaml and scenario.yaml")
	fl.DurationVar(&f.readyTimeout, "ready-timeout", 90*time.Second, "how long the app has to answer its readiness URL")
	fl.StringVar(&f.checkMemory, "check-memory", "1Gi", "the memory limit of the check's one start (generous: it checks wiring, not size)")
	fl.BoolVar(&f.noCheck, "no-check", false, "write the files without starting the app")
	fl.StringVar(&f.java, "java", "", "java binary for the check (default: $JAVA_HOME/bin/java, then PATH)")
	fl.StringVar(&f.engine, "engine", "", "with --image: docker or podman (default: docker if its daemon answers, else podman)")
	return cmd
}

func runInit(cmd *cobra.Command, f *initFlags) error {
	in, err := initInput(cmd.Context(), f)
	if err != nil {
		return asUsage(err)
	}
	mem, err := size.Parse(f.checkMemory)
	if err != nil {
		return usagef("--check-memory: %w", err)
	}
	files, err := scaffold.Write(in, f.force)
	if err != nil {
		return asUsage(err)
	}
	out := cmd.OutOrStdout()
	printFound(out, in, files)
	if f.noCheck {
		printNext(out, in, files, 512*size.MiB)
		return nil
	}
	t0 := time.Now()
	check := func(alternatives []string) (*scaffold.Checked, error) {
		c, err := scaffold.Check(cmd.Context(), files.App, in.Paths(), scaffold.CheckOptions{
			Memory: mem, Java: f.java, Engine: f.engine, Warmup: 2 * time.Second, Duration: 3 * time.Second,
			Progress: experiment.ProgressWriter(cmd.ErrOrStderr()), LogDir: filepath.Join(in.Dir, "init-logs"),
			ReadyAlternatives: alternatives,
		})
		if err != nil && cmd.Context().Err() != nil {
			return nil, fmt.Errorf("interrupted: the check was stopped")
		}
		return c, asUsage(err)
	}
	var alternatives []string
	if path, guessed := in.ReadyPath(); !guessed && path == in.Found.Ready {
		alternatives = in.Found.Paths.Alternatives
	}
	c, err := check(alternatives)
	if err != nil {
		return err
	}
	if alt := c.Result.ReadyFallback; alt != "" {
		// The app moved its health endpoint where its jar does not say
		// (the environment, a profile): the files take the path that
		// answered, and are checked again as written.
		was := in.ReadyURL()
		in.TakeFallback(alt)
		if c.Result.LogFile != "" {
			os.Remove(c.Result.LogFile) // the second check's log stands for both
		}
		fmt.Fprintf(out, "  ready:    %s answered 404; the framework's alternative %s answered 2xx: app.yaml now waits for %s\n", was, alt, in.ReadyURL())
		if files, err = scaffold.Write(in, true); err != nil {
			return asUsage(err)
		}
		if c, err = check(nil); err != nil {
			return err
		}
	}
	ok := printCheck(out, in, c, f.checkMemory, time.Since(t0))
	printNext(out, in, files, firstLimit(c.Result.MemoryPeakBytes))
	return checkVerdict(in, c, ok)
}

// checkVerdict: a framework jvmfit knows must pass its check; an unknown
// one has its guesses marked, and the files stand (exit 0).
func checkVerdict(in scaffold.Input, c *scaffold.Checked, ok bool) error {
	if ok || in.Found.Framework == detect.Unknown {
		return nil
	}
	r := c.Result
	if r.Kind == trial.KindNotReady {
		return usagef("%s; app.yaml and scenario.yaml are written: set ready: in app.yaml to a URL that answers 2xx", strings.Join(r.Failed, "; "))
	}
	if r.Verdict == trial.OK || r.Kind == trial.KindSLO {
		return errors.New("the app started, but some requests did not answer 2xx (above): fix their paths in scenario.yaml")
	}
	return fmt.Errorf("the check failed: %s", strings.Join(r.Failed, "; "))
}

// initInput reads the flags into what scaffold needs (scaffold.Request).
func initInput(ctx context.Context, f *initFlags) (scaffold.Input, error) {
	return scaffold.Request{Jar: f.jar, Image: f.image, Command: f.command, Name: f.name, Out: f.out, SLO: f.slo,
		Java: f.java, Engine: f.engine, Gets: f.getList, Args: f.argList, Env: f.envList, Rate: f.rate,
		ReadyTimeout: f.readyTimeout}.Input(ctx)
}

func printFound(w io.Writer, in scaffold.Input, files scaffold.Files) {
	r := in.Found
	fmt.Fprintf(w, "%s: %s\n", in.Name, scaffold.Describe(r))
	port := strings.Join(r.Args, " ")
	for _, k := range sortedEnvKeys(r.Env) {
		port = strings.TrimSpace(port + " " + k + "=" + r.Env[k])
	}
	if r.Port != 0 {
		port = fmt.Sprintf("its own, %d", r.Port)
	}
	fmt.Fprintf(w, "  port:     %s\n", port)
	fmt.Fprintf(w, "  ready:    %s\n", in.ReadyURL())
	for _, k := range r.Paths.Read {
		fmt.Fprintf(w, "  config:   %s\n", k)
	}
	for _, k := range r.Paths.Ignored {
		fmt.Fprintf(w, "  ignored:  %s\n", k)
	}
	if in.Java != "" {
		fmt.Fprintf(w, "  java:     %s (%s)\n", in.Java, in.JavaWhy)
	}
	for _, g := range r.Guessed {
		fmt.Fprintf(w, "  guess:    %s\n", g)
	}
	fmt.Fprintf(w, "  wrote:    %s, %s: GET %s at %g req/s, SLO %s\n", files.App, files.Scenario, strings.Join(in.Paths(), ", GET "), in.Rate, in.SLO)
}

// printCheck says what the one start showed; true when all was well.
func printCheck(w io.Writer, in scaffold.Input, c *scaffold.Checked, limit string, took time.Duration) bool {
	r := c.Result
	ok := r.Kind != trial.KindNotReady && r.Kind != trial.KindExited && r.Kind != trial.KindOOMKilled &&
		r.Kind != trial.KindJavaOOM && r.Kind != trial.KindMemoryStall
	if ok {
		fmt.Fprintf(w, "  check:    started once under %s: ready in %.1fs, cgroup peak %s (%s in all)\n",
			limit, r.StartSeconds, size.Format(r.MemoryPeakBytes), took.Round(100*time.Millisecond))
	} else {
		fmt.Fprintf(w, "  check:    started once under %s: KO %s: %s\n", limit, r.Kind, strings.Join(r.Failed, "; "))
	}
	for _, rc := range c.Requests {
		mark := "ok"
		if !rc.OK() {
			mark = "FAILED"
			ok = false
		}
		if r.StartSeconds > 0 {
			fmt.Fprintf(w, "            %s (%s)\n", rc.Line(), mark)
			if hint := in.ContextHint(rc.Path); rc.Statuses["404"] > 0 && hint != "" {
				fmt.Fprintf(w, "            %s\n", hint)
			}
		}
	}
	if !ok && r.OutputTail != "" {
		fmt.Fprintln(w, "  output (last lines):")
		for _, l := range strings.Split(r.OutputTail, "\n") {
			fmt.Fprintln(w, "    | "+l)
		}
	}
	if r.LogFile != "" {
		fmt.Fprintln(w, "  log:      "+r.LogFile)
	}
	return ok
}

// firstLimit is a limit for a first run: twice the check's peak, in
// 64 MiB steps, at least 128 MiB (512 MiB when nothing was measured).
func firstLimit(peak int64) int64 {
	if peak <= 0 {
		return 512 * size.MiB
	}
	const step = 64 * size.MiB
	return max(128*size.MiB, (2*peak+step-1)/step*step)
}

func printNext(w io.Writer, in scaffold.Input, files scaffold.Files, limit int64) {
	if len(in.Gets) == 0 {
		fmt.Fprintf(w, "  edit:     %s: your own requests (or rerun with --get /your/path), then rate and slo in %s\n", files.Scenario, files.App)
	} else {
		fmt.Fprintf(w, "  edit:     rate and slo in %s; POST bodies and headers in %s (docs/scenario.md)\n", files.App, files.Scenario)
	}
	if len(in.Found.Guessed) > 0 {
		fmt.Fprintf(w, "  edit:     the lines marked GUESS in %s\n", files.App)
	}
	fmt.Fprintf(w, "  next:     jvmfit run --app %s --memory %s\n", files.App, size.Format(limit))
	fmt.Fprintf(w, "            jvmfit minmem --app %s            (the smallest limit that holds the SLO)\n", files.App)
}

func sortedEnvKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
