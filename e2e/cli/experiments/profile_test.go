package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func TestProfileBadInputExit2(t *testing.T) {
	prereq.Root(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	// A trial run without NMT: a profile from it is refused, naming the flag.
	desc := clitest.RunFixture(t, "serve", "30s")
	if _, stderr, code := clitest.Run(t, nil, "run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--duration", "1s"); code != 0 {
		t.Fatalf("fixture trial exit %d\n%s", code, stderr)
	}
	cases := map[string]struct {
		args []string
		want string
	}{
		"no trial":        {[]string{"profile", "--db", db}, "--trial"},
		"no such db":      {[]string{"profile", "--db", filepath.Join(dir, "none.db"), "--trial", "1"}, "no such database"},
		"no such trial":   {[]string{"profile", "--db", db, "--trial", "99"}, "no such trial"},
		"run without NMT": {[]string{"profile", "--db", db, "--trial", "1", "-o", filepath.Join(dir, "p.json")}, "--nmt"},
		"profile-out dir": {[]string{"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--profile-out", "/nonexistent/p.json"}, "/nonexistent"},
		"profile-out -":   {[]string{"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--profile-out", "-"}, "file name"},
	}
	for name, c := range cases {
		_, stderr, code := clitest.Run(t, nil, c.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) != 1 || !strings.Contains(lines[0], c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line naming %s", name, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "p.json")); err == nil {
		t.Error("a refused profile was written")
	}
}

// TestRunProfileOutFilecache runs filecache briefly with --profile-out: the
// profile's figures are plausible for it, the launcher accepts it, and
// `jvmfit profile` writes the same profile from the stored trial.
func TestRunProfileOutFilecache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: filecache takes a minute or more to start on a shared machine")
	}
	prereq.Root(t)
	clitest.NeedJava(t)
	desc, _ := filepath.Abs("../../../workloads/filecache/app.yaml")
	jars, _ := filepath.Glob(filepath.Join(filepath.Dir(desc), "target", "*.jar"))
	if len(jars) == 0 {
		prereq.Built(t, filepath.Join(filepath.Dir(desc), "target", "filecache.jar"))
	}
	dir := t.TempDir()
	db, out := filepath.Join(dir, "t.db"), filepath.Join(dir, "filecache.json")
	stdout, stderr, code := clitest.Run(t, nil, "run", "--app", desc, "--memory", "384Mi", "--cpus", "1", "--java", clitest.Java17,
		"--rate", "20", "--warmup", "3s", "--duration", "8s", "--var", "files=20", "--var", "workers=4",
		"--slo", "success>=0.99,start<=150s", "--db", db, "--profile-out", out)
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, stdout, stderr)
	}
	p, err := plan.LoadProfile(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("profile: %+v", *p)
	const mib = 1 << 20
	if p.Version != 1 || p.App != "filecache" || p.JDKVersion != 17 || p.MemoryLimitBytes != 384*mib || p.Rate != 20 {
		t.Errorf("measured under: %+v", p)
	}
	if p.LoadedClasses < 5000 || p.LoadedClasses > 20000 || p.MetaspaceUsedBytes < 20*mib || p.MetaspaceUsedBytes > 100*mib {
		t.Errorf("classes %d, metaspace %d MiB: not filecache's", p.LoadedClasses, p.MetaspaceUsedBytes/mib)
	}
	nmt := p.NMTPeakBytes
	if nmt["Total"] < 60*mib || nmt["Java Heap"] <= 0 || nmt["Thread"] <= 0 || nmt["Compiler"] <= 0 || nmt["Code"] < p.CodeCacheUsedBytes/2 {
		t.Errorf("NMT peaks %v", nmt)
	}
	if p.CodeCacheUsedBytes < 2*mib || p.LiveHeapBytes < 4*mib || p.CDSArchiveBytes < 2*mib || p.PeakUncappedNativeBytes < 4*mib || p.PeakThreads < 15 {
		t.Errorf("code %d, live %d, CDS %d, uncapped %d, threads %d", p.CodeCacheUsedBytes, p.LiveHeapBytes, p.CDSArchiveBytes, p.PeakUncappedNativeBytes, p.PeakThreads)
	}
	// JDK 17 writes most of its archive's pages (9.8 of 11.7 MiB on
	// filecache): the written part is measured, and never more than the
	// resident whole.
	if p.CDSArchiveAnonBytes <= 0 || p.CDSArchiveAnonBytes > p.CDSArchiveBytes {
		t.Errorf("archive written %d of %d resident", p.CDSArchiveAnonBytes, p.CDSArchiveBytes)
	}
	if _, stderr, code := clitest.Run(t, nil, "flags", "--java", clitest.Java17, "--memory", "256Mi", "--cpus", "1", "--profile", out); code != 0 {
		t.Errorf("flags --profile refused the profile: exit %d %s", code, stderr)
	}
	// The same profile from the stored trial.
	id := regexp.MustCompile(`stored:\s+trial (\d+)`).FindStringSubmatch(stdout)
	if id == nil {
		t.Fatalf("no trial id in\n%s", stdout)
	}
	again := filepath.Join(dir, "again.json")
	if _, stderr, code := clitest.Run(t, nil, "profile", "--db", db, "--trial", id[1], "-o", again); code != 0 {
		t.Fatalf("profile exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Errorf("jvmfit profile from the store differs from --profile-out:\n%s\n%s", a, b)
	}
}
