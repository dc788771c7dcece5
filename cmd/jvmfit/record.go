package main

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/launcher"
	"github.com/jvmfit/jvmfit/internal/profile"
)

// recordFlags are exec's --record-profile flags.
type recordFlags struct {
	path  string
	every time.Duration
}

func (r *recordFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&r.path, "record-profile", "", "stay java's parent, sample it and write its peaks to this profile file (docs/profile-record.md)")
	fs.DurationVar(&r.every, "record-every", 5*time.Minute, "with --record-profile: how often the file is written (and at exit)")
}

// check refuses, before java starts, a file that could not be written.
func (r *recordFlags) check() error {
	if r.every < time.Second {
		return usagef("--record-every %s: give at least 1s (the default is 5m)", r.every)
	}
	if fi, err := os.Stat(filepath.Dir(r.path)); err != nil || !fi.IsDir() {
		return usagef("--record-profile %s: no directory %s to write it in", r.path, filepath.Dir(r.path))
	}
	if fi, err := os.Stat(r.path); err == nil && fi.IsDir() {
		return usagef("--record-profile %s is a directory: give a file name", r.path)
	}
	return nil
}

// recordSample is the sampling period within a window: hsperf and /proc
// once a second cost the JVM nothing measurable (smaps_rollup every 4th).
const recordSample = time.Second

func (r *recordFlags) supervision() launcher.Supervision {
	return launcher.Supervision{Every: r.every, Sample: min(recordSample, r.every)}
}

func (r *recordFlags) recorder(log io.Writer) func(launcher.Run) launcher.Recorder {
	return func(run launcher.Run) launcher.Recorder {
		return profile.NewRecorder(r.path, run.App, run.Options, run.Input, log)
	}
}
