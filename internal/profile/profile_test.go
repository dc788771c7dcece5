package profile

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

var update = flag.Bool("update", false, "rewrite the golden profiles in testdata")

const mib = 1 << 20

// TestGoldenFilecache extracts the profile of a real filecache trial (256Mi,
// 1 CPU, 50 req/s, NMT every 2 s, a full GC forced at the end), stored as
// `jvmfit run --json` wrote it, and compares it with the golden file.
func TestGoldenFilecache(t *testing.T) {
	r := loadTrial(t, "testdata/filecache-trial.json")
	p, notes, err := From(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes %q on a trial with a forced full GC", notes)
	}
	got, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := "testdata/filecache-profile.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("profile differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	// The golden file is a profile the launcher reads, version checked and
	// unknown fields refused.
	back, err := plan.LoadProfile(golden)
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Errorf("LoadProfile: %v\n%+v\n%+v", err, back, p)
	}
}

// TestGoldenPlausible checks the golden profile's figures against what is
// known of filecache at 256Mi on JDK 17, so that -update cannot bless
// nonsense.
func TestGoldenPlausible(t *testing.T) {
	p := extract(t, loadTrial(t, "testdata/filecache-trial.json"))
	in := func(name string, v, lo, hi int64) {
		if v < lo || v > hi {
			t.Errorf("%s = %d, want %d..%d", name, v, lo, hi)
		}
	}
	in("loadedClasses", p.LoadedClasses, 6000, 15000)
	in("metaspaceUsedBytes", p.MetaspaceUsedBytes, 20*mib, 80*mib)
	in("classSpaceUsedBytes", p.ClassSpaceUsedBytes, 2*mib, p.MetaspaceUsedBytes)
	in("codeCacheUsedBytes", p.CodeCacheUsedBytes, 2*mib, 48*mib)
	in("peakThreads", p.PeakThreads, 15, 200)
	in("liveHeapBytes", p.LiveHeapBytes, 4*mib, 64*mib)
	in("cdsArchiveBytes", p.CDSArchiveBytes, 4*mib, 32*mib)
	in("peakUncappedNativeBytes", p.PeakUncappedNativeBytes, 8*mib, 128*mib)
	in("nmt Compiler", p.NMTPeakBytes["Compiler"], 2*mib, 64*mib)
	if p.Version != 1 || p.App != "filecache" || p.JDKVersion != 17 || p.MemoryLimitBytes != 256*mib || p.CPUs != 1 || p.Rate != 50 || p.Trial == 0 {
		t.Errorf("what it was measured under: %+v", p)
	}
	if !hasOption(p.Options, "-XX:NativeMemoryTracking=summary") {
		t.Errorf("options %q lack the NMT option the trial ran with", p.Options)
	}
}

func hasOption(opts []string, o string) bool {
	for _, x := range opts {
		if x == o {
			return true
		}
	}
	return false
}

// A synthetic run: two NMT readings, the C1 burst only in the first.
func syntheticTrial() *trial.Result {
	jvm := func(at time.Duration, rssAnon, heap int64, old int64, nmt map[string]int64) probe.Sample {
		return probe.Sample{At: at, RSS: rssAnon + 20*mib, RSSAnon: rssAnon, Threads: 30,
			HeapCommitted: heap, HeapUsed: heap / 2, HeapMax: 64 * mib, OldUsed: heap / 4, OldGCs: old,
			MetaspaceUsed: 30 * mib, MetaspaceCommitted: 32 * mib, ClassSpaceUsed: 4 * mib, Classes: 8000, NMT: nmt}
	}
	burst := map[string]int64{"Compiler": 4608 * 1024, "Code": 8 * mib, "Other": mib, "Native Memory Tracking": mib, "Total": 90 * mib}
	calm := map[string]int64{"Compiler": 512 * 1024, "Code": 10 * mib, "Other": 2 * mib, "Native Memory Tracking": mib, "Total": 100 * mib}
	s := []probe.Sample{
		{At: time.Second, RSS: 5 * mib}, // before hsperf exists
		jvm(10*time.Second, 100*mib, 20*mib, 0, burst),
		{At: 10*time.Second + 250*time.Millisecond, RSSAnon: 100 * mib, HeapCommitted: 20 * mib, ArchiveRSS: 12 * mib, ArchiveAnon: 3 * mib, MappedFileRSS: mib},
		jvm(20*time.Second, 120*mib, 60*mib, 1, calm),
		jvm(21*time.Second, 150*mib, 90*mib, 2, nil), // no NMT reading: not a point
	}
	r := &trial.Result{ID: 7, Verdict: trial.OK,
		Spec:   trial.Spec{AppName: "demo", JDKVersion: 17, JVMOptions: []string{"-Xss512k"}, MemoryBytes: 128 * mib, CPUs: 1, Rate: 100},
		Env:    trial.Env{JDK: "17.0.15 Debian"},
		Series: s}
	r.Summary = probe.Summarise(s, 0)
	return r
}

func TestSyntheticRules(t *testing.T) {
	p := extract(t, syntheticTrial())
	// Uncapped native is the peak of the difference: at 10 s 100 - 20 heap
	// - 32 metaspace - 8 code - 1 direct - 1 NMT = 38 MiB (the archive's
	// anonymous pages are not known yet); at 20 s 120 - 60 - 32 - 10 - 2 -
	// 3 archive - 1 = 12 MiB. The difference of the peaks would be
	// 150 - 90 - ... , far less.
	if p.PeakUncappedNativeBytes != 38*mib {
		t.Errorf("peakUncappedNativeBytes %d MiB, want 38", p.PeakUncappedNativeBytes/mib)
	}
	// The compiler's burst is kept though the last reading is calm.
	if p.NMTPeakBytes["Compiler"] != 4608*1024 || p.NMTPeakBytes["Total"] != 100*mib {
		t.Errorf("NMT peaks %v", p.NMTPeakBytes)
	}
	want := plan.Profile{Version: 1, App: "demo", LoadedClasses: 8000, PeakThreads: 30,
		MetaspaceUsedBytes: 30 * mib, ClassSpaceUsedBytes: 4 * mib, DirectMemoryBytes: 2 * mib, MappedBufferBytes: mib,
		CDSArchiveBytes: 12 * mib, CDSArchiveAnonBytes: 3 * mib, LiveHeapBytes: 90 * mib / 4, JDKVersion: 17, JDKVendor: "Debian",
		Options: []string{"-Xss512k"}, MemoryLimitBytes: 128 * mib, CPUs: 1, Rate: 100, Trial: 7}
	// Each field names its source; what the series lacks (no code cache
	// reading, no Java thread count) is marked, not zero-and-measured.
	for f, src := range map[string]string{"liveHeapBytes": "hsperf", "peakThreads": "proc", "directMemoryBytes": "nmt",
		"peakUncappedNativeBytes": "nmt", "codeCacheUsedBytes": "unmeasured", "peakJavaThreads": "unmeasured"} {
		if p.Sources[f] != src {
			t.Errorf("sources[%s] = %q, want %q", f, p.Sources[f], src)
		}
	}
	if p.Source != "trial" {
		t.Errorf("source %q, want trial", p.Source)
	}
	p.PeakUncappedNativeBytes, p.NMTPeakBytes, p.Sources, p.Source = 0, nil, nil, ""
	if !reflect.DeepEqual(*p, want) {
		t.Errorf("got  %+v\nwant %+v", *p, want)
	}
}

func TestRefusals(t *testing.T) {
	for name, c := range map[string]struct {
		change func(r *trial.Result)
		want   string
	}{
		"oom-killed": {func(r *trial.Result) { r.Verdict, r.Kind = trial.KO, trial.KindOOMKilled }, "larger --memory"},
		"not ready":  {func(r *trial.Result) { r.Verdict, r.Kind = trial.KO, trial.KindNotReady }, "larger --memory"},
		"no series":  {func(r *trial.Result) { r.Series = nil }, "--profile-out"},
		"no NMT": {func(r *trial.Result) {
			for i := range r.Series {
				r.Series[i].NMT = nil
			}
		}, "--nmt"},
		"no hsperf": {func(r *trial.Result) {
			for i := range r.Series {
				r.Series[i].HeapCommitted, r.Series[i].HeapMax = 0, 0
			}
		}, "-XX:-UsePerfData"},
	} {
		r := syntheticTrial()
		c.change(r)
		_, _, err := From(r)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err %v, want one line naming %s", name, err, c.want)
		}
	}
	// An SLO miss still measured the app: its profile is kept.
	r := syntheticTrial()
	r.Verdict, r.Kind = trial.KO, trial.KindSLO
	if _, _, err := From(r); err != nil {
		t.Errorf("SLO KO: %v", err)
	}
}

func TestNoFullGCNote(t *testing.T) {
	r := syntheticTrial()
	for i := range r.Series {
		r.Series[i].OldGCs = 0
	}
	_, notes, err := From(r)
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "no full GC") {
		t.Errorf("notes %q, err %v", notes, err)
	}
}

// TestLoadProfileRefuses: what the launcher reads back is checked.
func TestLoadProfileRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"unknown field": `{"version": 1, "loadedClasses": 10, "heapBytes": 5}`,
		"newer version": `{"version": 2, "loadedClasses": 10}`,
	} {
		f := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		os.WriteFile(f, []byte(body), 0o644)
		if _, err := plan.LoadProfile(f); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func extract(t *testing.T, r *trial.Result) *plan.Profile {
	t.Helper()
	p, _, err := From(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func loadTrial(t *testing.T, path string) *trial.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r trial.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}
