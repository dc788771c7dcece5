package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/jvmfit/jvmfit/internal/jdk"
)

// ImageJDK reads the JDK inside an image, so that the planner plans for
// the runtime that will run, not the host's: the java the image's
// entrypoint runs, found as the container would find it (findJava), and
// its version and vendor from the release file beside it. An image need
// not set JAVA_HOME.
func ImageJDK(ctx context.Context, e Engine, image string) (jdk.JDK, error) {
	r := NewImageReader(e, image)
	defer r.Close()
	return r.JDK(ctx)
}

// JDK is ImageJDK through r.
func (r *ImageReader) JDK(ctx context.Context) (jdk.JDK, error) {
	start, err := StartOf(ctx, r.e, r.image)
	if err != nil {
		return jdk.JDK{}, err
	}
	fs, err := r.tree(ctx)
	if err != nil {
		return jdk.JDK{}, err
	}
	found, ok := findJava(fs, start)
	if !ok {
		if err := r.treeErr(); err != nil {
			return jdk.JDK{}, fmt.Errorf("image %s: cannot read its files to find its java: %w", r.image, err)
		}
		return jdk.JDK{}, fmt.Errorf("image %s: no java found where its entrypoint would find one (%s, PATH, JAVA_HOME, /opt/java/openjdk, /usr/lib/jvm/*, /layers/*/jre): is it a Java image?",
			r.image, strings.Join(start.Argv, " "))
	}
	home := javaHomeOf(found.java)
	text, err := r.readFile(ctx, home+"/release")
	if err != nil {
		return jdk.JDK{}, fmt.Errorf("image %s: its java %s (%s) has no %s/release: %w", r.image, found.java, found.how, home, err)
	}
	j, err := jdk.FromRelease(home, text)
	j.Path = found.java
	return j, err
}

// exportFS lists a created container's files by streaming its export: the
// whole image, for an engine that can neither mount it nor copy one path
// as it is (rootless podman, whose cp follows links).
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
	// Podman 4.3 in the cgroup v2 guest (its root an initramfs) exported
	// nothing and exited 0: an empty tree is the engine's failure, not an
	// image without java.
	if rerr == nil && len(fs) <= 1 {
		return nil, fmt.Errorf("%s export wrote no files (and no error)", e.Bin)
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
