package image

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// Layout places a JDK in an image as a vendor's image does, so that the
// image-JDK lookup is tested on the layouts users build, offline.
type Layout struct {
	JDKAt      string            // where the JDK's tree goes ("" = its host path)
	Links      map[string]string // extra symbolic links, path → target
	Env        []string          // the image's ENV (no JAVA_HOME unless listed)
	Entrypoint []string          // the image's ENTRYPOINT (exec form)
}

// The layouts of the images users run, each from the host's JDK 17.
var (
	// Distroless: no shell, no JAVA_HOME, no PATH of its own (the engine's
	// default applies); /usr/bin/java links to the JDK.
	Distroless = Layout{
		Links:      map[string]string{"/usr/bin/java": JDK17 + "/bin/java"},
		Entrypoint: []string{"/usr/bin/java", "-jar", "/app.jar"},
	}
	// Temurin: the JDK at /opt/java/openjdk, JAVA_HOME and PATH set.
	Temurin = Layout{
		JDKAt: "/opt/java/openjdk",
		Env:   []string{"JAVA_HOME=/opt/java/openjdk", "PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
	}
	// Buildpack: the JRE in a buildpack's layer, put on PATH by the
	// buildpack's launcher only when the container starts; the image's
	// configuration names neither it nor JAVA_HOME.
	Buildpack = Layout{
		JDKAt:      "/layers/paketo-buildpacks_bellsoft-liberica/jre",
		Env:        []string{"PATH=/cnb/process:/cnb/lifecycle:/usr/local/bin:/usr/bin:/bin", "CNB_APP_DIR=/workspace"},
		Entrypoint: []string{"/cnb/process/web"},
	}
)

// JDKImage makes ref an image of the JDK at home placed as l says, unless
// it exists from the same inputs. It reports whether it built.
func JDKImage(ctx context.Context, e docker.Engine, home, ref string, l Layout) (bool, error) {
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return false, fmt.Errorf("no JDK at %s: %w", home, err)
	}
	libs, err := Libraries(ctx, real)
	if err != nil {
		return false, fmt.Errorf("cannot list the libraries of %s: %w", home, err)
	}
	layout, _ := json.Marshal(l)
	inputs, err := hashInputs(append([]string{real}, libs...), string(layout))
	if err != nil {
		return false, err
	}
	if upToDate(ctx, e, ref, inputs) {
		return false, nil
	}
	args := []string{"import"}
	for _, kv := range l.Env {
		args = append(args, "--change", "ENV "+kv)
	}
	if len(l.Entrypoint) > 0 {
		ep, _ := json.Marshal(l.Entrypoint)
		args = append(args, "--change", "ENTRYPOINT "+string(ep))
	}
	args = append(args, "--change", "LABEL "+LabelInputs+"="+inputs, "-", ref)
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeRootfs(pw, real, libs, l)) }()
	_, err = e.Run(ctx, pr, args...)
	pr.Close()
	if err != nil {
		return false, fmt.Errorf("cannot import the rootfs of %s as %s: %w", home, ref, err)
	}
	return true, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
