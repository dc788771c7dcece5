//go:build linux

package trial

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

// dbApp is the fixture server with a postgres service; a shell prints the
// exported URL to the app's log before exec'ing the JVM.
func dbApp(t *testing.T, mode string, dbMemory string) *app.App {
	t.Helper()
	needFixture(t)
	prereq.Postgres(t)
	scenario, _ := filepath.Abs("testdata/light.yaml")
	yaml := fmt.Sprintf(`name: Fixture-DB
command: ["/bin/sh", "-c", "echo DB_URL=$DB_URL USER=$DB_USER; exec \"$@\"", "sh", "${java}", "${jvm_options}", "-cp", %q, "Server", %q, "${port}"]
env: {DB_URL: "${db_url}", DB_USER: "${db_user}"}
ready: http://127.0.0.1:${port}/health
ready_timeout: 30s
scenario: %s
services:
  - {name: db, kind: postgres, memory: %s, cpus: 1}
`, fixtureClasses, mode, scenario, dbMemory)
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// serviceLeftovers: server processes whose command line names one of this
// process's service directories, and those directories.
func serviceLeftovers(t *testing.T) []string {
	t.Helper()
	mark := fmt.Sprintf("jvmfit-svc-%d-", os.Getpid())
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), mark) {
			var pid int
			fmt.Sscanf(filepath.Base(filepath.Dir(p)), "%d", &pid)
			if !gone(pid) {
				out = append(out, fmt.Sprintf("pid %d", pid))
			}
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), mark+"*"))
	return append(out, dirs...)
}

func TestTrialStartsItsDatabaseFirstAndReportsItsFootprint(t *testing.T) {
	needRoot(t)
	a := dbApp(t, "serve", "128Mi")
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1, SLO: "success>=0.99"})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != OK {
		t.Fatalf("verdict %s %q\n%s", r.Verdict, r.Failed, r.OutputTail)
	}
	if len(r.Services) != 1 {
		t.Fatalf("services %+v, want the db", r.Services)
	}
	s := r.Services[0]
	t.Logf("db: peak %s, cpu %s", size.Format(s.MemoryPeak), s.CPUTime)
	if s.Name != "db" || s.Kind != "postgres" || s.MemoryBytes != 128*size.MiB || s.CPUs != 1 ||
		s.MemoryPeak < 4*size.MiB || s.MemoryPeak > 128*size.MiB || s.CPUTime <= 0 || s.OOMKilled {
		t.Errorf("db usage %+v", s)
	}
	log, _ := os.ReadFile(r.LogFile)
	if !strings.Contains(string(log), "DB_URL=jdbc:postgresql://127.0.0.1:") || !strings.Contains(string(log), "/fixture_db USER=fixture_db") {
		t.Errorf("the app did not get the database's exports:\n%.500s", log)
	}
	if left := serviceLeftovers(t); len(left) > 0 {
		t.Errorf("left behind after an OK trial: %v", left)
	}
}

func TestFailedTrialStillRemovesItsDatabase(t *testing.T) {
	needRoot(t)
	a := dbApp(t, "exit", "128Mi")
	a.Command[len(a.Command)-1] = "3"
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != KO || r.Kind != KindExited {
		t.Fatalf("got %s %s, want KO exited", r.Verdict, r.Kind)
	}
	if len(r.Services) != 1 || r.Services[0].MemoryPeak <= 0 {
		t.Errorf("services %+v", r.Services)
	}
	if left := serviceLeftovers(t); len(left) > 0 {
		t.Errorf("left behind after a KO trial: %v", left)
	}
}

func TestDatabaseThatCannotStartIsAnErrorAndTheAppNeverStarts(t *testing.T) {
	needRoot(t)
	a := dbApp(t, "serve", "8Mi")
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err == nil {
		t.Fatalf("got a result %s with a database in 8Mi", r.Line())
	}
	t.Log(err)
	if !strings.Contains(err.Error(), `service "db" (postgres)`) {
		t.Errorf("error %q does not name the service", err)
	}
	if g := ownTrialGroups(t); len(g) != 0 {
		t.Errorf("cgroups left: %v", g)
	}
	if left := serviceLeftovers(t); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// cancelOnReady cancels the trial once the app is ready, as SIGINT would.
type cancelOnReady struct {
	t      *testing.T
	cancel context.CancelFunc
	once   sync.Once
}

func (c *cancelOnReady) Write(b []byte) (int, error) {
	c.t.Log(strings.TrimRight(string(b), "\n"))
	if strings.HasPrefix(string(b), "ready in") {
		c.once.Do(c.cancel)
	}
	return len(b), nil
}

func TestInterruptedTrialRemovesItsDatabase(t *testing.T) {
	needRoot(t)
	a := dbApp(t, "serve", "128Mi")
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1, Duration: 20 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := deps(t)
	d.Progress = &cancelOnReady{t: t, cancel: cancel}
	start := time.Now()
	r, err := Run(ctx, spec, a, d)
	if err != context.Canceled || r != nil {
		t.Fatalf("got %v, %v; want no result and context.Canceled", r, err)
	}
	if time.Since(start) > 60*time.Second {
		t.Errorf("interrupted trial took %s", time.Since(start))
	}
	if left := serviceLeftovers(t); len(left) > 0 {
		t.Errorf("left behind after cancel: %v", left)
	}
}

func TestDatabaseName(t *testing.T) {
	for in, want := range map[string]string{"inventory": "inventory", "Fixture-DB": "fixture_db", "9lives": "lives", "--": "app", "a.b c": "a_b_c"} {
		if got := databaseName(in); got != want {
			t.Errorf("databaseName(%q) = %q, want %q", in, got, want)
		}
	}
}
