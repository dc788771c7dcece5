package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// ImageID is the image's content id (sha256:...): a tag rebuilt is another
// image, and so another trial.
func ImageID(ctx context.Context, e Engine, image string) (string, error) {
	id, err := e.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", image)
	if err != nil {
		return "", fmt.Errorf("image %s is not in the %s engine's store (%w): build or pull it first", image, e.Bin, err)
	}
	return id, nil
}

// CopyFiles copies files out of an image into dir, each under its path in
// the image (dir/usr/lib/jvm/...) (ImageReader.CopyFiles). It is how the
// planner reads the image's CDS archive size.
func CopyFiles(ctx context.Context, e Engine, image, dir string, paths ...string) error {
	r := NewImageReader(e, image)
	defer r.Close()
	return r.CopyFiles(ctx, dir, paths...)
}

// writeFirst writes the tar's first file to dst.
func writeFirst(tarred []byte, dst string) error {
	tr := tar.NewReader(bytes.NewReader(tarred))
	if _, err := tr.Next(); err != nil {
		return err
	}
	return writeFile(tr, dst)
}

// writeFile writes r to dst, through a temporary name so that a reader
// never sees half of it.
func writeFile(r io.Reader, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".part-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// ImageInfo is what one `image inspect` tells about an image: its content
// id and the JAVA_HOME its configuration sets ("" if none).
type ImageInfo struct {
	ID       string
	JavaHome string
	Size     int64 // bytes, as the engine counts them
}

// Inspect reads an image's id, size and JAVA_HOME in one engine call.
func Inspect(ctx context.Context, e Engine, image string) (ImageInfo, error) {
	out, err := e.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}} {{.Size}} {{json .Config.Env}}", image)
	if err != nil {
		return ImageInfo{}, fmt.Errorf("image %s is not in the %s engine's store (%w): build or pull it first", image, e.Bin, err)
	}
	id, rest, _ := strings.Cut(out, " ")
	sz, env, _ := strings.Cut(rest, " ")
	size, err := strconv.ParseInt(sz, 10, 64)
	if err != nil {
		return ImageInfo{}, fmt.Errorf("image %s: the %s engine's size %q is no number", image, e.Bin, sz)
	}
	var vars []string
	if err := json.Unmarshal([]byte(env), &vars); err != nil && env != "null" {
		return ImageInfo{}, fmt.Errorf("cannot read the environment of image %s: %w", image, err)
	}
	home, err := imageJavaHome(image, javaHome(vars))
	if err != nil {
		return ImageInfo{}, err
	}
	return ImageInfo{ID: id, JavaHome: home, Size: size}, nil
}

// imageJavaHome is the JAVA_HOME an image sets, cleaned; "" if none. The
// JDK's files are cached on the host under that path, so a relative one
// (which could climb out of the cache with ..) is refused.
func imageJavaHome(image, home string) (string, error) {
	if home == "" {
		return "", nil
	}
	if !path.IsAbs(home) {
		return "", fmt.Errorf("image %s sets JAVA_HOME=%q, not an absolute path: jvmfit keeps the image's JDK files on the host under its JAVA_HOME and takes only an absolute one", image, home)
	}
	return path.Clean(home), nil
}
