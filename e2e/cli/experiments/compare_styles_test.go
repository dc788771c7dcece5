package experiments

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/store"
)

var fiveModes = []string{"default", "runjava", "paketo", "ubi", "jvmfit"}

func needFilecache(t *testing.T) string {
	t.Helper()
	clitest.NeedJava(t)
	prereq.Root(t)
	prereq.Built(t, "../../../workloads/filecache/target/filecache.jar")
	abs, _ := filepath.Abs("../../../workloads/filecache/app.yaml")
	return abs
}

// At 256Mi the Paketo calculator's regions do not fit: compare reports the
// refusal in one line naming the mode, before any trial runs, and exits 2.
func TestCompareStylesPaketoRefusal(t *testing.T) {
	app := needFilecache(t)
	db := filepath.Join(t.TempDir(), "c.db")
	out, errOut, code := clitest.Run(t, nil, "compare", "--app", app, "--memory", "256Mi", "--cpus", "1",
		"--jvm", strings.Join(fiveModes, ","), "--db", db)
	if code != 2 || !strings.Contains(errOut, "jvm=paketo") || !strings.Contains(errOut, "heap would be negative") ||
		strings.Count(strings.TrimSpace(errOut), "\n") != 0 || strings.Contains(errOut, "panic") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and one line with paketo's refusal", code, out, errOut)
	}
}

// All five modes side by side on filecache: one trial each, every mode's
// own options at the trial's limit (the Paketo heap is what the calculator
// leaves, the UBI heap 80% of the limit).
func TestCompareStylesSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("five Spring Boot trials (about 3 minutes)")
	}
	app := needFilecache(t)
	db := filepath.Join(t.TempDir(), "c.db")
	out, errOut, code := clitest.Run(t, nil, "compare", "--app", app, "--memory", "640Mi", "--cpus", "1",
		"--jvm", strings.Join(fiveModes, ","), "--db", db, "--json",
		"--var", "files=20", "--var", "workers=2", "--rate", "20", "--warmup", "1s", "--duration", "3s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, lastLine(errOut))
	}
	var res struct {
		Cells []struct {
			JVM     string `json:"jvm"`
			Verdict string `json:"verdict"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, c := range res.Cells {
		if c.Verdict == "" {
			t.Errorf("%s: no verdict", c.JVM)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	trials, err := st.Trials(store.Filter{Kind: "compare", Light: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range trials {
		got[r.Spec.JVM] = r.Spec.JVMOptions
	}
	for _, m := range fiveModes {
		if _, ok := got[m]; !ok {
			t.Errorf("no cell for %s in %s", m, out)
		}
	}
	if j := strings.Join(got["paketo"], " "); !strings.Contains(j, "-XX:ReservedCodeCacheSize=240M") || !strings.Contains(j, "-Xmx") {
		t.Errorf("paketo ran with %q", j)
	}
	if j := strings.Join(got["ubi"], " "); !strings.Contains(j, "-XX:MaxRAMPercentage=80.0") {
		t.Errorf("ubi ran with %q", j)
	}
	if j := strings.Join(got["runjava"], " "); !strings.Contains(j, "-XX:+ExitOnOutOfMemoryError") {
		t.Errorf("runjava ran with %q", j)
	}
}

func lastLine(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return l[len(l)-1]
}
