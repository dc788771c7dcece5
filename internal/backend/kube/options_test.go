package kube

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// Backend.Run honours the trial's Options as the other backends do, on
// envtest's real API server: each trial's Job lines go to that trial's
// Progress, and its LogDir keeps the app container's log, read while the
// pod is still there, under the name a local trial's log would have.
func TestEnvtestRunHonoursOptions(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spec := testSpec(320 * mi)
	startKubelet(t, ctx, c, ns, finishedWith(mustMessage(t, Message{Result: okResult(spec)}), terminated(AppContainer, "Error", 143, "")))
	r := envRunner(c, ns)
	logErr := error(nil)
	r.Logs = func(ctx context.Context, pod, container string) (io.ReadCloser, error) {
		if container != AppContainer {
			t.Errorf("log of container %s read: only the app's is kept", container)
		}
		if _, err := c.CoreV1().Pods(ns).Get(ctx, pod, metav1.GetOptions{}); err != nil {
			t.Errorf("the app's log read after its pod went: %v", err)
		}
		if logErr != nil {
			return nil, logErr
		}
		return io.NopCloser(strings.NewReader("Started FilecacheApplication in 2.9 seconds\n")), nil
	}
	b := &Backend{run: r.Run}

	var first, second bytes.Buffer
	dir := t.TempDir()
	res, err := b.Run(ctx, spec, testApp(), trial.Options{Progress: &first, LogDir: dir})
	if err != nil || res.Verdict != trial.OK {
		t.Fatalf("%v %v", res, err)
	}
	if !strings.Contains(first.String(), "job "+ns+"/") || !strings.Contains(first.String(), " created") {
		t.Errorf("the trial's progress got %q: want its Job's line", first.String())
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	if len(logs) != 1 || !strings.HasPrefix(filepath.Base(logs[0]), "filecache-320Mi-1.5cpu-jvmfit-") {
		t.Fatalf("LogDir holds %v: want the one trial's log, named as a local trial's", logs)
	}
	if b, _ := os.ReadFile(logs[0]); string(b) != "Started FilecacheApplication in 2.9 seconds\n" {
		t.Errorf("kept log %q: want the app container's output", b)
	}

	// The next trial's lines go to its own stream, and a log that cannot
	// be read is a note, not a failed trial.
	logErr = errors.New("pods/log: the node is gone")
	res, err = b.Run(ctx, spec, testApp(), trial.Options{Progress: &second, LogDir: dir})
	if err != nil || res.Verdict != trial.OK {
		t.Fatalf("%v %v", res, err)
	}
	if strings.Count(first.String(), " created") != 1 || !strings.Contains(second.String(), " created") {
		t.Errorf("first trial's progress %q, second's %q: want one Job line each", first.String(), second.String())
	}
	if notes := strings.Join(res.Notes, "; "); !strings.Contains(notes, "the app's log not kept: pods/log: the node is gone") {
		t.Errorf("notes %q: want the log that was not kept said", notes)
	}
	assertGone(t, c, ns)
}
