package container

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

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
	e, err := imageEngine(ctx, spec.Engine)
	if err != nil {
		return jdk.JDK{}, err
	}
	info, err := imageInfo(ctx, e, a.Image)
	if err != nil {
		return jdk.JDK{}, err
	}
	id := info.ID
	j, err := imageJDK(ctx, e, a.Image, info, spec.JVM)
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
	local.Home = imageCacheDir(id, j.Home)
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

// imageJDK reads the image's JDK once per image id: from the release file
// an earlier jvmfit copied into the cache, else from the image (a created
// container), copying the files the planner and the anchors read (the CDS
// archive; the module image only for --jvm paketo, which counts its
// classes: 100+ MiB).
func imageJDK(ctx context.Context, e docker.Engine, image string, info docker.ImageInfo, mode string) (jdk.JDK, error) {
	key := e.Bin + " " + info.ID
	imageJDKs.Lock()
	j, ok := imageJDKs.byID[key]
	imageJDKs.Unlock()
	if !ok {
		var err error
		if j, err = cachedJDK(info); err != nil {
			if j, err = docker.ImageJDK(ctx, e, image); err != nil {
				return j, err
			}
		}
		if err := copyOnce(ctx, e, image, info.ID, j.Home, "release", "lib/server/classes.jsa"); err != nil {
			return j, err
		}
		imageJDKs.Lock()
		imageJDKs.byID[key] = j
		imageJDKs.Unlock()
	}
	if mode == "paketo" {
		if err := copyOnce(ctx, e, image, info.ID, j.Home, "lib/modules"); err != nil {
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
	b, err := os.ReadFile(filepath.Join(imageCacheDir(info.ID, info.JavaHome), "release"))
	if err != nil {
		return jdk.JDK{}, err
	}
	return jdk.FromRelease(info.JavaHome, string(b))
}

// copyOnce copies the JDK's files (relative to home) out of the image into
// its cache directory, unless a previous jvmfit did.
func copyOnce(ctx context.Context, e docker.Engine, image, id, home string, rel ...string) error {
	dir := imageCacheDir(id, "")
	var missing []string
	for _, r := range rel {
		if _, err := os.Stat(filepath.Join(dir, home, r)); err != nil {
			missing = append(missing, filepath.Join(home, r))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return docker.CopyFiles(ctx, e, image, dir, missing...)
}

// imageCacheDir is where an image's JDK files are kept: the user's cache
// (~/.cache/jvmfit/image-jdk/<id>), since an image id's files never change.
func imageCacheDir(id, home string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 16 {
		id = id[:16]
	}
	return filepath.Join(base, "jvmfit", "image-jdk", id, home)
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
