package hsperf

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// Retries for a file caught while the JVM adds entries or is still starting.
const (
	readAttempts = 10
	readPause    = 10 * time.Millisecond
)

// ReadFile reads and parses a perf-data file. The JVM writes it through shared
// memory while we read, so a read that does not parse is retried a few times;
// only the last error is returned. A missing file is returned at once
// (errors.Is(err, fs.ErrNotExist)), as is a file still marked not accessible
// after the retries (ErrNotReady).
func ReadFile(path string) (*Snapshot, error) {
	var last error
	for i := 0; i < readAttempts; i++ {
		if i > 0 {
			time.Sleep(readPause)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		s, err := Parse(b)
		if err == nil {
			return s, nil
		}
		last = err
	}
	if errors.Is(last, ErrNotReady) {
		return nil, last
	}
	return nil, fmt.Errorf("%s: %w", path, last)
}
