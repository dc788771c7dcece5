package profile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// Recorder keeps the peaks of a JVM that jvmfit exec --record-profile
// supervises, folded window by window from the probe's samples (hsperf,
// /proc, smaps, NMT when the JVM runs with it), and writes them as a
// profile after every window. A region no source here measures stays 0,
// which the planner reads as unmeasured.
type Recorder struct {
	path string
	p    plan.Profile
	// lab is the profile this run was planned from (--profile), for the
	// diff line; nil without one.
	lab *plan.Profile
	in  plan.Input
	// log takes the diff line and notes (stderr).
	log io.Writer

	prevOld int64 // the old-GC count seen last, across windows
	told    bool  // the mid-run diff line was printed
}

// NewRecorder is the recorder of app's JVM, run with options for in (the
// planner's input, Profile the one it was planned from). When path holds
// a profile of the same app and JDK, its peaks are where this run's start:
// production's peaks over every start, not since the last.
func NewRecorder(path, app string, options []string, in plan.Input, log io.Writer) *Recorder {
	r := &Recorder{path: path, lab: in.Profile, in: in, log: log}
	r.p = plan.Profile{Version: plan.ProfileVersion, App: app, JDKVersion: in.JDK.Version, JDKVendor: in.JDK.Vendor,
		Options: append([]string(nil), options...)}
	if in.Limits.EffectiveMemory() > 0 && in.JDK.Version > 0 {
		r.p.MemoryLimitBytes, r.p.CPUs = in.Limits.EffectiveMemory(), in.Limits.EffectiveCPUs()
	}
	if old, err := plan.LoadProfile(path); err == nil && old.App == app && old.JDKVersion == r.p.JDKVersion {
		r.p.RaisePeaks(old)
	}
	return r
}

// Started is the launcher's word that java runs (as pid).
func (r *Recorder) Started(int) {}

// Profile is the peaks so far.
func (r *Recorder) Profile() plan.Profile { return r.p }

// Window folds a window's samples into the peaks and writes the file;
// final is the window that ended with java. The diff line against the
// profile the run was planned from is printed at the end, and once before
// it, the first time production exceeds it.
func (r *Recorder) Window(series []probe.Sample, final bool) error {
	r.fold(series)
	err := r.write()
	if r.lab != nil && r.log != nil {
		d := Diff(r.lab, &r.p, r.in)
		d.Prod = r.path
		if final || (!r.told && len(d.Exceeded) > 0) {
			r.told = true
			fmt.Fprintln(r.log, "jvmfit: profile: "+d.Line())
		}
	}
	return err
}

// fold takes the series' peaks. The live set is the old generation right
// after an old (full) collection, the only moment hsperf measures it; a
// run without one leaves liveHeapBytes as it was (no GC is forced).
func (r *Recorder) fold(s []probe.Sample) {
	p := &r.p
	w, _ := sampledProfile(s)
	for _, x := range s {
		if !x.HasJVM() {
			continue
		}
		if x.OldGCs > r.prevOld {
			w.LiveHeapBytes = max(w.LiveHeapBytes, x.OldUsed)
		}
		r.prevOld = max(r.prevOld, x.OldGCs)
	}
	p.RaisePeaks(w)
}

// write puts the profile at path whole or not at all: a new file beside
// it, renamed over it, so a reader (the next start) never sees half.
func (r *Recorder) write() error {
	// Each field says where it came from, as a --pid profile's do: the
	// recording samples the JVM the same way.
	r.p.Source = "record"
	r.p.Sources = sampledSources(&r.p)
	b, err := json.MarshalIndent(&r.p, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(r.path), "."+filepath.Base(r.path)+".tmp-")
	if err != nil {
		return fmt.Errorf("--record-profile: cannot write %s: %v", r.path, err)
	}
	tmp := f.Name()
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, r.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("--record-profile: cannot write %s: %v", r.path, err)
	}
	return nil
}
