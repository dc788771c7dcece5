package cgroupv2

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A guest that stops printing is killed once its silence outlasts the
// watch, and says what it said last; one that keeps talking is not.
func TestSilentGuestIsKilled(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "qemu")
	// Stands in for QEMU: a line, then nothing (a stalled emulator).
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho '@@BEGIN host cgroup'\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err := bootGuest(context.Background(), t, guestConfig{qemu: fake, memMiB: 64, cpus: 1, silence: 2 * time.Second})
	if !errors.Is(err, errGuestSilent) {
		t.Fatalf("err = %v, want errGuestSilent", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("killed after %v, want about the 2s silence", d)
	}

	talk := filepath.Join(dir, "talker")
	if err := os.WriteFile(talk, []byte("#!/bin/sh\nfor i in 1 2 3 4; do echo line $i; sleep 1; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := bootGuest(context.Background(), t, guestConfig{qemu: talk, memMiB: 64, cpus: 1, silence: 3 * time.Second}); err != nil {
		t.Errorf("a guest that prints every second was stopped: %v", err)
	}
}
