package profile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/sandbox"
)

// A service with no metrics of its own, given client_java's endpoint by
// workloads/metrics-agent (as bench/prodprofile.sh profiles the panel):
// the scrape gets in only with the agent's password (from the
// environment), agrees with the JVM's own counters (--pid) on metaspace,
// code cache and threads, keeps the password out of the file, and the
// launcher plans from what it measured: a profile of few threads runs C1
// alone at a small limit, which no profile does.
func TestScrapedAgentProfilePlans(t *testing.T) {
	jar := clitest.Repo("workloads/heapbound/target/heapbound.jar")
	agent := clitest.Repo("workloads/metrics-agent/target/metrics-agent.jar")
	prereq.Built(t, jar)
	prereq.Built(t, agent)
	dir := t.TempDir()
	pass := "p" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := os.WriteFile(filepath.Join(dir, "pass"), []byte(pass+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	port := freePort(t)
	argv := []string{clitest.Java17, "-XX:+UseSerialGC",
		fmt.Sprintf("-javaagent:%s=port-file=%s/port,password-file=%s/pass", agent, dir, dir),
		"-jar", jar, "--port=" + strconv.Itoa(port)}
	var appOut bytes.Buffer
	app, err := sandbox.Start(ctx, sandbox.Spec{Name: "profile-agent", Argv: argv,
		Limits: cgroup.Spec{MemoryBytes: memory, CPUs: 1}, Stdout: &appOut, Stderr: &appOut})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Stop(5 * time.Second)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitReady(ctx, t, app, base+"/health", &appOut)
	load := clitest.Cmd(t, nil, "load", "--rate", "50", "--duration", "2m", base+"/records?from=1")
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = load.Process.Kill(); _ = load.Wait() }()
	b, err := os.ReadFile(filepath.Join(dir, "port"))
	if err != nil {
		t.Fatalf("the agent wrote no port file: %v: %s", err, appOut.String())
	}
	metrics := "http://jvmfit@127.0.0.1:" + strings.TrimSpace(string(b)) + "/metrics"

	// Without the password: one line, exit 2, saying how to give it.
	_, errs, code := clitest.Run(t, nil, "profile", "--scrape", metrics, "--duration", "1s")
	if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "JVMFIT_SCRAPE_PASSWORD") {
		t.Errorf("no password: exit %d, %q; want exit 2 and one line naming JVMFIT_SCRAPE_PASSWORD", code, errs)
	}

	// The scrape and the JVM's own counters, over the same window.
	scrapeFile, pidFile := filepath.Join(dir, "scrape.json"), filepath.Join(dir, "pid.json")
	scrape := clitest.Cmd(t, []string{"JVMFIT_SCRAPE_PASSWORD=" + pass}, "profile", "-o", scrapeFile,
		"--scrape", metrics, "--duration", "8s", "--interval", "1s")
	var scrapeErr bytes.Buffer
	scrape.Stderr = &scrapeErr
	if err := scrape.Start(); err != nil {
		t.Fatal(err)
	}
	pid, _ := profileOf(t, pidFile, "--pid", strconv.Itoa(app.Pid()), "--duration", "8s", "--interval", "1s")
	if err := scrape.Wait(); err != nil {
		t.Fatalf("the scrape with the password: %v: %s", err, scrapeErr.String())
	}
	raw, err := os.ReadFile(scrapeFile)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(pass)) {
		t.Errorf("the profile file holds the password:\n%s", raw)
	}
	got := loadProfile(t, scrapeFile)
	for _, f := range []string{"metaspaceUsedBytes", "codeCacheUsedBytes", "peakJavaThreads", "loadedClasses"} {
		if got.Sources[f] != plan.SourceJMX {
			t.Errorf("%s: source %q, want %s (client_java's names)", f, got.Sources[f], plan.SourceJMX)
		}
	}
	within := func(what string, a, b int64, frac float64, slack int64) {
		d := a - b
		if d < 0 {
			d = -d
		}
		if float64(d) > frac*float64(max(a, b))+float64(slack) {
			t.Errorf("%s: scrape %d, --pid %d: more than %.0f%% apart", what, a, b, frac*100)
		}
	}
	within("metaspace", got.MetaspaceUsedBytes, pid.MetaspaceUsedBytes, 0.10, 0)
	// The code cache grows while the load compiles: a second's difference
	// between the two windows' last samples is slack, not disagreement.
	within("code cache", got.CodeCacheUsedBytes, pid.CodeCacheUsedBytes, 0.10, 1<<20)
	within("java threads", int64(got.PeakJavaThreads), int64(pid.PeakJavaThreads), 0.10, 1)

	// Planned from: at 128Mi, balanced, a profile of few threads runs C1
	// alone; without a profile the launcher keeps tiered compilation.
	with, errs, code := clitest.Run(t, nil, "flags", "--memory", "128Mi", "--cpus", "1", "--profile", scrapeFile)
	if code != 0 {
		t.Fatalf("flags --profile (scraped): exit %d: %s", code, errs)
	}
	without, _, _ := clitest.Run(t, nil, "flags", "--memory", "128Mi", "--cpus", "1")
	if !strings.Contains(with, "-XX:TieredStopAtLevel=1") || strings.Contains(without, "-XX:TieredStopAtLevel=1") {
		t.Errorf("with the scraped profile (%d java threads): %s\nwithout: %s\nwant C1 alone with it only", got.PeakJavaThreads, with, without)
	}
}
