package run

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/store"
)

func TestRunBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	desc := clitest.RunFixture(t, "serve", "10s")
	cases := map[string][]string{
		"no app":        {"run", "--memory", "64Mi"},
		"app and jar":   {"run", "--app", desc, "--jar", "x.jar", "--memory", "64Mi"},
		"ready w/ app":  {"run", "--app", desc, "--ready", "http://127.0.0.1:1/", "--memory", "64Mi"},
		"missing file":  {"run", "--app", "/nonexistent/app.yaml", "--memory", "64Mi"},
		"bad memory":    {"run", "--app", desc, "--memory", "lots"},
		"no memory":     {"run", "--app", desc, "--java", clitest.Java17},
		"bad jvm":       {"run", "--app", desc, "--memory", "64Mi", "--java", clitest.Java17, "--jvm", "Xmx64m"},
		"no sets file":  {"run", "--app", desc, "--memory", "64Mi", "--java", clitest.Java17, "--jvm", "set:pardef"},
		"bad slo":       {"run", "--app", desc, "--memory", "64Mi", "--java", clitest.Java17, "--slo", "p99<=soon"},
		"bad var":       {"run", "--app", desc, "--memory", "64Mi", "--var", "novalue"},
		"jar no ready":  {"run", "--jar", desc, "--memory", "64Mi"},
		"bad goal":      {"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--jvm", "jvmfit:fast"},
		"limits+none":   {"run", "--app", desc, "--memory", "256Mi", "--no-limits"},
		"too many cpus": {"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--cpus", "4096"},
		"unknown flag":  {"run", "--app", desc, "--memroy", "256Mi"},
		"missing java":  {"run", "--app", desc, "--memory", "256Mi", "--java", "/nonexistent/java"},
		"bad db":        {"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", "/nonexistent/dir/x.db"},
		"unknown field": {"run", "--app", clitest.WriteDesc(t, "jar: a.jar\nready: http://h/\nreddy: 1\n"), "--memory", "64Mi"},
		"no scenario":   {"run", "--app", desc, "--scenario", "/nonexistent/s.yaml", "--memory", "64Mi"},
	}
	for name, args := range cases {
		_, stderr, code := clitest.Run(t, nil, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "jvmfit: ") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line", name, code, stderr)
		}
	}
}

// Issue 12, finding 7: a file that is no descriptor, and a limit no
// cgroup takes, are one plain line each, and nothing is started or echoed.
func TestRunRefusesPlainly(t *testing.T) {
	clitest.NeedJava(t)
	desc := clitest.RunFixture(t, "serve", "10s")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--app", "/etc/passwd", "--memory", "64Mi"}, "/etc/passwd: not an app descriptor: expected a YAML map of fields"},
		{[]string{"run", "--app", desc, "--memory", "1Ki", "--java", clitest.Java17}, "--memory 1Ki: a trial's limit is at least 4Mi"},
	} {
		_, stderr, code := clitest.Run(t, nil, c.args...)
		if code != 2 || !strings.HasPrefix(stderr, "jvmfit: "+c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line starting %q", c.args, code, stderr, c.want)
		}
		if strings.Contains(stderr, "app.raw") || strings.Contains(stderr, "trial ") {
			t.Errorf("%q: %q leaks an internal name or echoes a trial", c.args, stderr)
		}
	}
}

// Issue 12, finding 5: --scenario with --app replaces the descriptor's
// scenario; and finding 6: the echoed command line shows the environment
// the mode gives the app.
func TestRunScenarioOverridesTheDescriptorsAndEchoesTheEnv(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "30s")
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte("requests:\n  limits: {url: /limits}\nphases:\n  - {name: other, model: closed, workers: 1, iterations: 7, sequence: [limits]}\n"), 0o644)
	stdout, stderr, code := clitest.Run(t, nil, "run", "--app", desc, "--scenario", other, "--memory", "256Mi", "--java", clitest.Java17, "--jvm", "jvmfit",
		"--db", filepath.Join(t.TempDir(), "t.db"), "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var r struct {
		Phases []struct {
			Phase    string `json:"phase"`
			Requests int64  `json:"requests"`
		} `json:"phases"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 1 || r.Phases[0].Phase != "other" || r.Phases[0].Requests != 7 {
		t.Errorf("phases %+v, want the --scenario's one phase of 7 requests", r.Phases)
	}
	if !strings.Contains(stderr, "jvm jvmfit: MALLOC_ARENA_MAX=2 "+clitest.Java17+" ") {
		t.Errorf("the echoed command line lacks the plan's environment:\n%s", stderr)
	}
}

func TestRunStoresOKAndKO(t *testing.T) {
	prereq.Root(t)
	db := filepath.Join(t.TempDir(), "t.db")
	ok := clitest.RunFixture(t, "serve", "30s")
	stdout, stderr, code := clitest.Run(t, nil, "run", "--app", ok, "--memory", "256Mi", "--cpus", "1", "--java", clitest.Java17, "--db", db, "--json")
	if code != 0 {
		t.Fatalf("OK trial exit %d\n%s", code, stderr)
	}
	var top map[string]any
	if err := json.Unmarshal([]byte(stdout), &top); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, stdout)
	}
	for _, k := range []string{"verdict", "kind", "failed", "start_seconds", "memory_peak_bytes", "working_set_peak_bytes", "load"} {
		if _, ok := top[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if top["verdict"] != "OK" {
		t.Errorf("verdict %v", top["verdict"])
	}
	if _, err := os.Stat(db + ".logs"); !os.IsNotExist(err) {
		t.Errorf("an OK run left its log directory %s.logs (%v)", db, err)
	}
	if ws, _ := top["working_set_peak_bytes"].(float64); ws <= 0 || ws > top["memory_peak_bytes"].(float64) {
		t.Errorf("working set peak %v, cgroup peak %v", ws, top["memory_peak_bytes"])
	}
	ko := clitest.RunFixture(t, "exit", "30s")
	tmp := t.TempDir()
	stdout, _, code = clitest.Run(t, []string{"TMPDIR=" + tmp}, "run", "--app", ko, "--memory", "256Mi", "--java", clitest.Java17, "--db", db)
	if code == 0 || !strings.Contains(stdout, "KO exited") || !strings.Contains(stdout, "fixture line 40") {
		t.Errorf("KO trial exit %d:\n%s", code, stdout)
	}
	// A KO's log is kept next to the database, named in the output, and
	// nothing of the run is left in the temporary directory.
	logs, _ := filepath.Glob(filepath.Join(db+".logs", "run", "*.log"))
	if len(logs) != 1 || !strings.Contains(stdout, logs[0]) {
		t.Errorf("KO logs %v, want one in %s.logs/run named in the output:\n%s", logs, db, stdout)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the run left %d entries in TMPDIR, the first %s", len(left), left[0].Name())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	exps, err := st.Experiments()
	if err != nil || len(exps) != 2 {
		t.Fatalf("experiments %+v %v", exps, err)
	}
}

func TestRunSIGINTLeavesNothingBehind(t *testing.T) {
	prereq.Root(t)
	db := filepath.Join(t.TempDir(), "t.db")
	desc := clitest.RunFixture(t, "serve", "30s")
	marker := "-Djvmfit.runtest=" + strconv.FormatInt(time.Now().UnixNano(), 36)
	// A first trial gives the database something to keep consistent.
	if _, stderr, code := clitest.Run(t, nil, "run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--duration", "1s"); code != 0 {
		t.Fatalf("first trial exit %d\n%s", code, stderr)
	}
	cmd := clitest.Cmd(t, nil, "run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--duration", "60s", "--jvm", marker)
	var errb bytes.Buffer
	pr, pw, _ := os.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Split(clitest.ScanCRLF)
		for sc.Scan() {
			errb.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(strings.TrimLeft(sc.Text(), "\x1b[K"), "measure") {
				select {
				case ready <- true:
				default:
				}
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("the trial did not reach its measured phase in 60s")
	}
	javaPids := clitest.PidsWith(marker)
	if len(javaPids) != 1 {
		t.Fatalf("want one java process with %s, found %v", marker, javaPids)
	}
	groups := filepath.Join(clitest.OwnMemoryCgroup(t), "jvmfit-"+strconv.Itoa(cmd.Process.Pid))
	if _, err := os.Stat(groups); err != nil {
		t.Fatalf("no trial cgroup at %s while running", groups)
	}
	t0 := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("jvmfit did not exit within 15s of SIGINT")
	}
	t.Logf("exited %s after SIGINT with %d", time.Since(t0), cmd.ProcessState.ExitCode())
	if c := cmd.ProcessState.ExitCode(); c != 130 {
		t.Errorf("exit %d, want 130", c)
	}
	if left := clitest.PidsWith(marker); len(left) != 0 {
		t.Errorf("java still running: %v", left)
	}
	if entries, err := os.ReadDir(groups); err == nil {
		t.Errorf("cgroups left in %s: %d entries", groups, len(entries))
	}
	// The interrupted trial is not stored; the earlier one is intact.
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var check string
	var n int
	if err := conn.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check %q %v", check, err)
	}
	if err := conn.QueryRow("SELECT COUNT(*) FROM trials").Scan(&n); err != nil || n != 1 {
		t.Errorf("%d trials stored (%v), want 1", n, err)
	}
}

// A jvmfit whose output is closed mid-trial (jvmfit run ... 2>&1 | head)
// stops as after SIGTERM and cleans up: before, the runtime's SIGPIPE
// killed it at the next progress line, before its deferred cleanup,
// leaving the app and its jvmfit-<pid> cgroups for the next run's sweep.
func TestRunIntoAClosedPipeLeavesNoCgroups(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "30s")
	cmd := clitest.Cmd(t, nil, "run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17,
		"--db", filepath.Join(t.TempDir(), "t.db"), "--duration", "1s")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = pw, pw // 2>&1 | head
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	// The reader stops once the app is ready, as head does after its lines.
	sc := bufio.NewScanner(pr)
	sc.Split(clitest.ScanCRLF)
	for sc.Scan() {
		errb.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "ready in") {
			break
		}
	}
	pr.Close()
	name := "jvmfit-" + strconv.Itoa(cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("jvmfit did not exit in 2 minutes")
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	t.Logf("exit %d (signalled %v)\n%s", cmd.ProcessState.ExitCode(), ws.Signaled(), errb.String())
	if ws.Signaled() || cmd.ProcessState.ExitCode() != 128+int(syscall.SIGPIPE) {
		t.Errorf("status %v: want a quiet exit %d, not death by a signal", cmd.ProcessState, 128+int(syscall.SIGPIPE))
	}
	for _, g := range ownGroupsIn(t) {
		if _, err := os.Stat(filepath.Join(g, name)); err == nil {
			t.Errorf("%s is left after jvmfit exited", filepath.Join(g, name))
		}
	}
}

// ownGroupsIn are this process's cgroup directories, one per hierarchy
// (v1's controllers, or v2's one).
func ownGroupsIn(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		ctl := strings.TrimPrefix(f[1], "name=")
		dirs = append(dirs, filepath.Join("/sys/fs/cgroup", ctl, f[2]))
	}
	return dirs
}
