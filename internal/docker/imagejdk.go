package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/jdk"
)

// ImageJDK reads the JDK inside an image, so that the planner plans for
// the runtime that will run, not the host's: its version and vendor, from
// $JAVA_HOME/release copied out of a created (never started) container.
func ImageJDK(ctx context.Context, e Engine, image string) (jdk.JDK, error) {
	out, err := e.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config.Env}}", image)
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("cannot inspect image %s: %w", image, err)
	}
	var env []string
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		return jdk.JDK{}, fmt.Errorf("cannot read the environment of image %s: %w", image, err)
	}
	home := javaHome(env)
	if home == "" {
		return jdk.JDK{}, fmt.Errorf("image %s sets no JAVA_HOME: set it in the image (ENV JAVA_HOME=...) so jvmfit can read its JDK's release file", image)
	}
	id, err := e.Run(ctx, nil, "create", "--entrypoint", "/", image)
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("cannot create a container of %s to read its JDK: %w", image, err)
	}
	defer func() {
		rm, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = e.Run(rm, nil, "rm", "--force", id)
	}()
	// docker cp to "-" writes a tar of the file to stdout.
	tarred, err := e.Output(ctx, nil, "cp", id+":"+home+"/release", "-")
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("image %s has no %s/release: %w", image, home, err)
	}
	text, err := firstFile(tarred)
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("cannot read %s/release of image %s: %w", home, image, err)
	}
	return jdk.FromRelease(home, text)
}

func javaHome(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "JAVA_HOME="); ok {
			return v
		}
	}
	return ""
}

func firstFile(tarred []byte) (string, error) {
	tr := tar.NewReader(bytes.NewReader(tarred))
	if _, err := tr.Next(); err != nil {
		return "", err
	}
	b, err := io.ReadAll(tr)
	return string(b), err
}
