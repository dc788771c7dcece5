package container

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// An image app runs its own JDK, so the plan is made for that JDK: its
// version and vendor from the image's $JAVA_HOME/release, and its CDS
// archive's size from lib/server/classes.jsa copied out of the image into
// a cache keyed by the image's id (docs/docker.md).

// images reads an image's JDK for the planner (trial.Images).
type images struct{}

// imageJDKs remembers each image's JDK by engine and image id: reading it
// costs a container's create and copy, and an experiment prepares many
// trials of one image.
var imageJDKs = struct {
	sync.Mutex
	byID    map[string]jdk.JDK
	engines map[string]string           // --engine as given ("" = detect) -> the engine found
	infos   map[string]docker.ImageInfo // engine and image -> what inspect said, once per process
}{byID: map[string]jdk.JDK{}, engines: map[string]string{}, infos: map[string]docker.ImageInfo{}}

// Prepare fills the spec of an image app: the engine, the image and its
// id, the java inside it (spec.Java = IMAGE:PATH) and its JDK, which it
// returns with Home at a local copy holding the files the planner reads.
func (images) Prepare(ctx context.Context, spec *trial.Spec, a *trial.App) (jdk.JDK, error) {
	ask, cancel := context.WithTimeout(ctx, engineTimeout)
	defer cancel()
	e, err := imageEngine(ask, spec.Engine)
	if err != nil {
		return jdk.JDK{}, err
	}
	info, err := imageInfo(ask, e, a.Image)
	if err != nil {
		return jdk.JDK{}, err
	}
	id := info.ID
	bound := readBound(info.Size)
	rctx, rcancel := context.WithTimeout(ctx, bound)
	defer rcancel()
	j, err := imageJDK(rctx, e, a.Image, info, spec.JVM)
	if err != nil && ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded) {
		return jdk.JDK{}, fmt.Errorf("image %s: reading its JDK took over %v (%v, and %v per %d MiB of its %d MiB): is the %s engine stuck (%s info)?",
			a.Image, bound, engineTimeout, perStep, readStep>>20, info.Size>>20, e.Bin, e.Bin)
	}
	if err != nil {
		return jdk.JDK{}, err
	}
	java := trial.ImageJava(a.Image, j.Path)
	if spec.Java != "" && spec.Java != java {
		return jdk.JDK{}, fmt.Errorf("--java %s: an image app runs the JDK in its image (%s in %s): drop --java", spec.Java, j.Path, a.Image)
	}
	spec.Engine, spec.Image, spec.ImageID = e.Bin, a.Image, id
	spec.Java, spec.JDKVersion = java, j.Version
	if spec.App == "" {
		spec.App = a.Image
	}
	local := j
	if local.Home, err = imageCacheDir(id, j.Home); err != nil {
		return jdk.JDK{}, fmt.Errorf("image %s: %w", a.Image, err)
	}
	return local, nil
}

// imageInfo inspects an image once per process and engine.
func imageInfo(ctx context.Context, e docker.Engine, image string) (docker.ImageInfo, error) {
	key := e.Bin + " " + image
	imageJDKs.Lock()
	info, ok := imageJDKs.infos[key]
	imageJDKs.Unlock()
	if ok {
		return info, nil
	}
	info, err := docker.Inspect(ctx, e, image)
	if err != nil {
		return info, err
	}
	imageJDKs.Lock()
	imageJDKs.infos[key] = info
	imageJDKs.Unlock()
	return info, nil
}

func imageEngine(ctx context.Context, name string) (docker.Engine, error) {
	imageJDKs.Lock()
	found, ok := imageJDKs.engines[name]
	imageJDKs.Unlock()
	if ok {
		return docker.Engine{Bin: found}, nil
	}
	e, err := docker.Select(ctx, name)
	if err != nil {
		return e, err
	}
	imageJDKs.Lock()
	imageJDKs.engines[name] = e.Bin
	imageJDKs.Unlock()
	return e, nil
}

// The bounds on reading an image: an engine's answers (its version, an
// image's inspect) come within engineTimeout; reading the JDK's files may
// take engineTimeout and perStep per readStep of the image's size, since
// the engine may copy the whole image to make the container it copies
// from (Docker's vfs driver does), which under emulation is minutes.
var (
	engineTimeout = 2 * time.Minute
	perStep       = time.Minute
)

const readStep = 100 << 20

// readBound is the bound on reading the JDK of an image of size bytes.
func readBound(size int64) time.Duration {
	if size < 0 {
		size = 0
	}
	steps := (size + readStep - 1) / readStep
	return engineTimeout + time.Duration(steps)*perStep
}

// imageJDK reads the image's JDK once per image id: from the release file
// an earlier jvmfit copied into the cache, else from the image, copying
// the files the planner and the anchors read (the CDS archive; the module
// image only for --jvm paketo, which counts its classes: 100+ MiB), all
// through one view of the image (docker.ImageReader).
func imageJDK(ctx context.Context, e docker.Engine, image string, info docker.ImageInfo, mode string) (jdk.JDK, error) {
	r := docker.NewImageReader(e, image)
	defer r.Close()
	key := e.Bin + " " + info.ID
	imageJDKs.Lock()
	j, ok := imageJDKs.byID[key]
	imageJDKs.Unlock()
	if !ok {
		var err error
		if j, err = cachedJDK(info); err != nil {
			if j, err = r.JDK(ctx); err != nil {
				return j, err
			}
		}
		if err := copyOnce(ctx, r, image, info.ID, j.Home, "release", "lib/server/classes.jsa"); err != nil {
			return j, err
		}
		imageJDKs.Lock()
		imageJDKs.byID[key] = j
		imageJDKs.Unlock()
	}
	if mode == "paketo" {
		if err := copyOnce(ctx, r, image, info.ID, j.Home, "lib/modules"); err != nil {
			return j, err
		}
	}
	return j, nil
}

// cachedJDK reads the image's JDK from its release file in the cache.
func cachedJDK(info docker.ImageInfo) (jdk.JDK, error) {
	if info.JavaHome == "" {
		return jdk.JDK{}, fmt.Errorf("no JAVA_HOME")
	}
	home, err := imageCacheDir(info.ID, info.JavaHome)
	if err != nil {
		return jdk.JDK{}, err
	}
	b, err := os.ReadFile(filepath.Join(home, "release"))
	if err != nil {
		return jdk.JDK{}, err
	}
	return jdk.FromRelease(info.JavaHome, string(b))
}

// copyOnce copies the JDK's files (relative to home) out of the image into
// its cache directory, unless a previous jvmfit did.
func copyOnce(ctx context.Context, r *docker.ImageReader, image, id, home string, rel ...string) error {
	dir, err := imageCacheDir(id, "")
	if err != nil {
		return err
	}
	var missing []string
	for _, r := range rel {
		p := filepath.Join(home, r)
		host, err := docker.HostPath(dir, p)
		if err != nil {
			return fmt.Errorf("image %s: its JDK at %s: %w", image, home, err)
		}
		if _, err := os.Stat(host); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return r.CopyFiles(ctx, dir, missing...)
}

// imageCacheDir is where an image's JDK files are kept: the user's cache
// (~/.cache/jvmfit/image-jdk/<id>), since an image id's files never change,
// and home ("" or the JDK's absolute path in the image) below it. Root
// writes the image's files there, so the path must stay in that id's
// directory, and is never a fixed name under the shared /tmp.
func imageCacheDir(id, home string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the image's JDK files: set HOME or XDG_CACHE_HOME (%v)", err)
	}
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 16 {
		id = id[:16]
	}
	root := filepath.Join(base, "jvmfit", "image-jdk")
	dir := filepath.Join(root, id)
	if id == "" || filepath.Dir(dir) != root {
		return "", fmt.Errorf("image id %q cannot name a cache directory", id)
	}
	if home == "" {
		return dir, nil
	}
	p, err := docker.HostPath(dir, home)
	if err != nil {
		return "", fmt.Errorf("JAVA_HOME: %w", err)
	}
	return p, nil
}

// JDKText is the image JDK's version and vendor for the result's env.
func (images) JDKText(spec trial.Spec) string {
	imageJDKs.Lock()
	defer imageJDKs.Unlock()
	j, ok := imageJDKs.byID[spec.Engine+" "+spec.ImageID]
	if !ok {
		return ""
	}
	return strings.TrimSpace(j.Full + " " + j.Vendor + " (image " + spec.Image + ")")
}
