package image

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// Podman keeps its images in a storage of its own (/var/lib/containers),
// apart from Docker's. JDKBase and App build there too when given the
// podman engine: `podman import` and `podman build` take the same
// arguments, and the inputs label skips a rebuild the same way. Copy
// brings an image already built with one engine to the other, as the very
// same image (same id), so that a trial under Podman runs the bytes a
// trial under Docker ran.

// Copy makes ref, an image of engine from, an image of engine to as well:
// `from save ref | to load`, skipped when to already holds ref with the
// same id. It reports whether it copied.
func Copy(ctx context.Context, from, to docker.Engine, ref string) (bool, error) {
	id, err := from.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", ref)
	if err != nil {
		return false, fmt.Errorf("no image %s in %s: %w", ref, from.Bin, err)
	}
	if got, err := to.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", ref); err == nil && sameID(got, id) {
		return false, nil
	}
	save := exec.CommandContext(ctx, from.Bin, "save", ref)
	var saveErr strings.Builder
	save.Stderr = &saveErr
	out, err := save.StdoutPipe()
	if err != nil {
		return false, err
	}
	if err := save.Start(); err != nil {
		return false, fmt.Errorf("cannot run %s save: %w", from.Bin, err)
	}
	_, loadErr := to.Run(ctx, out, "load", "--quiet")
	// A load that failed stops reading: close the pipe so save ends too.
	out.Close()
	if err := save.Wait(); err != nil && loadErr == nil {
		return false, fmt.Errorf("%s save %s: %w: %s", from.Bin, ref, err, strings.TrimSpace(saveErr.String()))
	}
	if loadErr != nil {
		return false, fmt.Errorf("cannot load %s into %s: %w", ref, to.Bin, loadErr)
	}
	got, err := to.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", ref)
	if err != nil || !sameID(got, id) {
		return false, fmt.Errorf("%s load of %s gave image %q (%v), not %s", to.Bin, ref, got, err, id)
	}
	return true, nil
}

// sameID compares image ids as Docker ("sha256:<hex>") and Podman
// ("<hex>") print them.
func sameID(a, b string) bool {
	return a != "" && strings.TrimPrefix(a, "sha256:") == strings.TrimPrefix(b, "sha256:")
}
