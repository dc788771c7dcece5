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
	"strings"
	"time"
)

// ImageStart is how an image starts its app: its entrypoint then its
// command, the working directory they run in, and its environment.
type ImageStart struct {
	Argv       []string
	WorkingDir string
	Env        []string
}

// StartOf reads an image's entrypoint, command, working directory and
// environment in one engine call.
func StartOf(ctx context.Context, e Engine, image string) (ImageStart, error) {
	out, err := e.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config}}", image)
	if err != nil {
		return ImageStart{}, fmt.Errorf("image %s is not in the %s engine's store (%w): build or pull it first", image, e.Bin, err)
	}
	var c struct {
		Entrypoint, Cmd, Env []string
		WorkingDir           string
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		return ImageStart{}, fmt.Errorf("cannot read the configuration of image %s: %w", image, err)
	}
	return ImageStart{Argv: append(c.Entrypoint, c.Cmd...), WorkingDir: c.WorkingDir, Env: c.Env}, nil
}

// CopyTree copies p, a file or a directory, out of an image into dir,
// under its path in the image (dir/deployments/lib/...), through one
// created (never started) container. Only regular files and directories
// are written, and nothing outside dir.
func CopyTree(ctx context.Context, e Engine, image, dir, p string) error {
	id, err := e.Run(ctx, nil, "create", "--entrypoint", "/", image)
	if err != nil {
		return fmt.Errorf("cannot create a container of %s to read its files: %w", image, err)
	}
	defer func() {
		rm, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = e.Run(rm, nil, "rm", "--force", id)
	}()
	tarred, err := e.Output(ctx, nil, "cp", id+":"+p, "-")
	if err != nil {
		return fmt.Errorf("cannot copy %s out of %s: %w", p, image, err)
	}
	// The tar's names start with p's base name.
	return untar(bytes.NewReader(tarred), filepath.Join(dir, path.Dir(path.Clean("/"+p))))
}

// untar writes a tar's regular files and directories below dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(h.Name)
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return fmt.Errorf("a file of the image leaves its directory: %s", h.Name)
		}
		dst := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			f, err := os.Create(dst)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}
