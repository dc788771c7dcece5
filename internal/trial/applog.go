package trial

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// appLog is the file the app's output goes to. A caller's LogDir keeps
// every log; without one, a temporary directory keeps only a KO's log.
type appLog struct {
	name, path string
	file       *os.File
	dir        string // the temporary directory, "" for a caller's LogDir
	keep       bool
}

// openLog names the log after the trial, not after its position in a run
// of trials, so that a user matches a kept log to the trial it belongs to:
// app, limits, mode and start time, e.g. filecache-96Mi-1cpu-jvmfit-20261123-110102.log.
func openLog(logDir string, spec Spec, started time.Time) (*appLog, error) {
	l := &appLog{keep: logDir != ""}
	if logDir == "" {
		dir, err := os.MkdirTemp("", "jvmfit-trial-")
		if err != nil {
			return nil, fmt.Errorf("cannot make a directory for the app's log: %w", err)
		}
		logDir, l.dir = dir, dir
	}
	base := logName(spec, started)
	for i := 1; ; i++ {
		l.name = base
		if i > 1 {
			l.name = base + "-" + strconv.Itoa(i)
		}
		l.path = filepath.Join(logDir, l.name+".log")
		f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			l.file = f
			return l, nil
		}
		if !errors.Is(err, os.ErrExist) || i == 1000 {
			l.close()
			return nil, fmt.Errorf("cannot create the app's log: %w", err)
		}
	}
}

// KeepLog creates, in a caller's LogDir, the log of a trial whose app's
// output a backend reads back from where the app ran (a Kubernetes pod's
// log), under the name the trial's own log would have.
func KeepLog(logDir string, spec Spec, started time.Time) (*os.File, error) {
	if logDir == "" {
		return nil, errors.New("no log directory to keep the app's log in")
	}
	l, err := openLog(logDir, spec, started)
	if err != nil {
		return nil, err
	}
	return l.file, nil
}

func logName(spec Spec, started time.Time) string {
	parts := []string{spec.AppName}
	if spec.NoLimits {
		parts = append(parts, "nolimits")
	} else {
		parts = append(parts, size.Format(spec.MemoryBytes))
		if spec.CPUs > 0 {
			parts = append(parts, strconv.FormatFloat(spec.CPUs, 'f', -1, 64)+"cpu")
		}
	}
	mode := spec.JVM
	if strings.HasPrefix(mode, "-") {
		mode = "custom"
	}
	parts = append(parts, mode)
	if spec.Repeat > 0 {
		parts = append(parts, "r"+strconv.Itoa(spec.Repeat))
	}
	if spec.Soak {
		parts = append(parts, "soak")
	}
	parts = append(parts, started.Format("20060102-150405"))
	return safeName(strings.Join(parts, "-"))
}

// close closes the file and removes what is not kept.
func (l *appLog) close() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
	if l.keep {
		return
	}
	if l.dir != "" {
		os.RemoveAll(l.dir)
	} else if l.path != "" {
		os.Remove(l.path)
	}
}

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

func safeName(s string) string {
	s = unsafeName().ReplaceAllString(s, "_")
	if s == "" || s[0] == '.' || s[0] == '-' || s[0] == '_' {
		s = "app" + s
	}
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
