package scaffold

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/docker"
)

// DetectImageOn selects the engine by name ("" picks docker if its daemon
// answers, else podman) and detects the image's framework through it.
func DetectImageOn(ctx context.Context, engine, image string) (*detect.Result, error) {
	if engine != "" && engine != docker.Docker && engine != docker.Podman {
		return nil, fmt.Errorf("--engine %q: give docker or podman", engine)
	}
	e, err := docker.Select(ctx, engine)
	if err != nil {
		return nil, err
	}
	return DetectImage(ctx, e, image)
}

// DetectImage finds the jar an image's entrypoint runs with -jar, copies it
// out (with Quarkus's lib/ beside it) and detects its framework. An image
// that runs no -jar is a guess, said so.
func DetectImage(ctx context.Context, e docker.Engine, image string) (*detect.Result, error) {
	start, err := docker.StartOf(ctx, e, image)
	if err != nil {
		return nil, err
	}
	jar := app.CommandJar(start.Argv)
	if jar == "" {
		return detectUnpacked(ctx, e, image, start)
	}
	if !path.IsAbs(jar) {
		wd := start.WorkingDir
		if wd == "" {
			wd = "/"
		}
		jar = path.Join(wd, jar)
	}
	dir, err := os.MkdirTemp("", "jvmfit-init-image-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := docker.CopyTree(ctx, e, image, dir, jar); err != nil {
		return nil, err
	}
	if path.Base(jar) == "quarkus-run.jar" {
		if err := docker.CopyTree(ctx, e, image, dir, path.Join(path.Dir(jar), "lib")); err != nil {
			return nil, err
		}
	}
	r, err := detect.Jar(filepath.Join(dir, filepath.FromSlash(jar)))
	if err != nil {
		return nil, err
	}
	r.Jar = jar
	r.Evidence += ", in " + jar + " in the image"
	return r, nil
}

// detectUnpacked looks for a jar unpacked where a buildpack or an
// "extracted" Dockerfile leaves one (the app directory a buildpack names,
// the working directory, /workspace, /app) and detects it.
func detectUnpacked(ctx context.Context, e docker.Engine, image string, start docker.ImageStart) (*detect.Result, error) {
	var dirs []string
	for _, kv := range start.Env {
		if d, ok := strings.CutPrefix(kv, "CNB_APP_DIR="); ok {
			dirs = append(dirs, d)
		}
	}
	dirs = append(dirs, start.WorkingDir, "/workspace", "/app")
	tmp, err := os.MkdirTemp("", "jvmfit-init-image-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	seen := map[string]bool{}
	for _, d := range dirs {
		d = path.Clean("/" + d)
		if d == "/" || seen[d] {
			continue
		}
		seen[d] = true
		if docker.CopyTree(ctx, e, image, tmp, path.Join(d, "META-INF", "MANIFEST.MF")) != nil {
			continue // no unpacked jar there
		}
		if err := docker.CopyTree(ctx, e, image, tmp, d); err != nil {
			return nil, err
		}
		r, err := detect.Dir(os.DirFS(tmp), strings.TrimPrefix(d, "/"))
		if err != nil {
			return nil, err
		}
		r.Jar = d
		r.Evidence += ", unpacked in " + d + " in the image"
		return r, nil
	}
	return detect.Guess("the image's entrypoint and command (" + strings.Join(start.Argv, " ") + ") run no -jar, and no unpacked jar was found"), nil
}
