package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jvmfit/jvmfit/internal/owner"
)

// ImageReader reads files out of an image, through one view of it made on
// first use and dropped by Close: podman mounts the image (`podman image
// mount`, no container, nothing copied); docker creates a container (never
// started) and copies single paths out of it. Only the paths the JDK's
// lookup visits and the files asked for are read, never the whole image:
// under emulation, or with the vfs storage driver, a whole export of a
// JDK image takes minutes.
type ImageReader struct {
	e     Engine
	image string
	id    string // the created container, if any
	mount bool   // the image is mounted (podman)
	// marker names the mounted image for the sweep of a jvmfit killed
	// before Close (mountMarker).
	marker string
	t      tree
}

// NewImageReader reads image through e; it runs nothing until asked.
func NewImageReader(e Engine, image string) *ImageReader { return &ImageReader{e: e, image: image} }

// closeTimeout bounds the clean-up of the reader's view: a container's
// removal deletes its copy of the image under the vfs driver.
const closeTimeout = time.Minute

// Close removes the reader's container or unmounts its image.
func (r *ImageReader) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	if r.id != "" {
		_, _ = r.e.Run(ctx, nil, "rm", "--force", r.id)
	}
	if r.mount {
		_, _ = r.e.Run(ctx, nil, "image", "unmount", r.image)
	}
	if r.marker != "" {
		_ = os.RemoveAll(r.marker)
	}
	r.id, r.mount, r.marker, r.t = "", false, "", nil
}

// mountedImageFile, in a mount marker, holds the image's name.
const mountedImageFile = "mounted-image"

// mountMarker records, before the image is mounted, which image this
// jvmfit mounts: a directory named as the podman work directories are
// (jvmfit-podman-<pid>-<random>, 0700, this user's), holding the image's
// name. A jvmfit killed with the image mounted leaves it, and the next
// run's sweep unmounts the image before it removes the directory
// (sweepPodmanDirs): a mount counts, and podman keeps the image's layers
// mounted until every mount is undone.
func mountMarker(image string) (string, error) {
	dir, err := os.MkdirTemp("", podmanDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, mountedImageFile), []byte(image+"\n"), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// readerCreateArgs creates the reader's container, never started, labelled
// as a trial's is (sweep.go): one a SIGKILL left behind goes with the next
// run's sweep.
func readerCreateArgs(image string) []string {
	return []string{"create",
		"--label", LabelPid + "=" + strconv.Itoa(os.Getpid()),
		"--label", LabelOwner + "=" + owner.ID(),
		"--label", LabelProcess + "=" + owner.Self().String(),
		"--label", LabelCreated + "=" + strconv.FormatInt(time.Now().Unix(), 10),
		"--entrypoint", "/", image}
}

// tree makes the reader's view on first use.
func (r *ImageReader) tree(ctx context.Context) (tree, error) {
	if r.t != nil {
		return r.t, nil
	}
	if r.e.IsPodman() {
		// Root's podman mounts an image; a rootless one needs `podman
		// unshare` for it, and gets the export below instead.
		if marker, err := mountMarker(r.image); err == nil {
			if dir, err := r.e.Run(ctx, nil, "image", "mount", r.image); err == nil && filepath.IsAbs(dir) {
				r.mount, r.marker, r.t = true, marker, mountTree{root: dir}
				return r.t, nil
			}
			_ = os.RemoveAll(marker)
		}
	}
	id, err := r.e.Run(ctx, nil, readerCreateArgs(r.image)...)
	if err != nil {
		return nil, fmt.Errorf("cannot create a container of %s to read its files: %w", r.image, err)
	}
	r.id = id
	if r.e.IsPodman() {
		// Podman's cp follows every link, so it cannot say what a path is.
		fs, err := exportFS(ctx, r.e, id)
		if err != nil {
			return nil, fmt.Errorf("cannot list the files of image %s: %w", r.image, err)
		}
		r.t = fs
		return fs, nil
	}
	r.t = newCPTree(ctx, r.e, id)
	return r.t, nil
}

// treeErr is the engine's error the tree met, if any.
func (r *ImageReader) treeErr() error {
	if c, ok := r.t.(*cpTree); ok {
		return c.err
	}
	return nil
}

// readFile reads one file of the image (its links followed), for the JDK's
// release file.
func (r *ImageReader) readFile(ctx context.Context, p string) (string, error) {
	if _, err := r.tree(ctx); err != nil {
		return "", err
	}
	if r.mount {
		f, err := r.openMounted(p)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	}
	// docker cp to "-" writes a tar of the file to stdout.
	tarred, err := r.e.Output(ctx, nil, "cp", r.id+":"+p, "-")
	if err != nil {
		return "", err
	}
	return firstFile(tarred)
}

// openMounted opens a regular file of the mounted image, its path resolved
// inside the image.
func (r *ImageReader) openMounted(p string) (*os.File, error) {
	m := r.t.(mountTree)
	real, ok := resolve(m, p)
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, os.ErrNotExist)
	}
	if e, _ := m.lstat(real); e.dir {
		return nil, fmt.Errorf("%s is a directory", p)
	}
	return os.Open(m.host(real))
}

// CopyFiles copies files out of the image into dir, each under its path in
// the image (dir/usr/lib/jvm/...); a path the image lacks is skipped, the
// others' errors are returned.
func (r *ImageReader) CopyFiles(ctx context.Context, dir string, paths ...string) error {
	if _, err := r.tree(ctx); err != nil {
		return err
	}
	for _, p := range paths {
		dst, err := HostPath(dir, p)
		if err != nil {
			return fmt.Errorf("cannot copy %s out of %s: %w", p, r.image, err)
		}
		if r.mount {
			f, err := r.openMounted(path.Clean(p))
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err == nil {
				err = writeFile(f, dst)
				f.Close()
			}
			if err != nil {
				return fmt.Errorf("cannot copy %s out of %s: %w", p, r.image, err)
			}
			continue
		}
		tarred, err := r.e.Output(ctx, nil, "cp", r.id+":"+p, "-")
		if err != nil {
			if missing(err.Error()) {
				continue
			}
			return fmt.Errorf("cannot copy %s out of %s: %w", p, r.image, err)
		}
		if err := writeFirst(tarred, dst); err != nil {
			return fmt.Errorf("cannot copy %s out of %s: %w", p, r.image, err)
		}
	}
	return nil
}
