package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/jdk"
)

// ImageJDK reads the JDK inside an image, so that the planner plans for
// the runtime that will run, not the host's: the java the image's
// entrypoint runs, found as the container would find it (findJava), and
// its version and vendor from the release file beside it, read from a
// created (never started) container. An image need not set JAVA_HOME.
func ImageJDK(ctx context.Context, e Engine, image string) (jdk.JDK, error) {
	start, err := StartOf(ctx, e, image)
	if err != nil {
		return jdk.JDK{}, err
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
	fs, err := exportFS(ctx, e, id)
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("cannot list the files of image %s: %w", image, err)
	}
	found, ok := findJava(fs, start)
	if !ok {
		return jdk.JDK{}, fmt.Errorf("image %s: no java found where its entrypoint would find one (%s, PATH, JAVA_HOME, /opt/java/openjdk, /usr/lib/jvm/*, /layers/*/jre): is it a Java image?",
			image, strings.Join(start.Argv, " "))
	}
	home := javaHomeOf(found.java)
	// docker cp to "-" writes a tar of the file to stdout.
	tarred, err := e.Output(ctx, nil, "cp", id+":"+home+"/release", "-")
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("image %s: its java %s (%s) has no %s/release: %w", image, found.java, found.how, home, err)
	}
	text, err := firstFile(tarred)
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("cannot read %s/release of image %s: %w", home, image, err)
	}
	j, err := jdk.FromRelease(home, text)
	j.Path = found.java
	return j, err
}

// exportFS lists a created container's files by streaming its export.
func exportFS(ctx context.Context, e Engine, id string) (imageFS, error) {
	cmd := exec.CommandContext(ctx, e.Bin, "export", id)
	cmd.Dir = e.Dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	fs, rerr := readImageFS(out)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("%s export: %v: %s", e.Bin, err, strings.TrimSpace(errb.String()))
	}
	return fs, rerr
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
