package scaffold

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/detect"
)

// Flags are an app given on an experiment's command line instead of an
// app.yaml (`jvmfit tune --jar app.jar --get /api/items`): the jar or
// image, the app's own arguments and environment, and the paths its
// scenario GETs. Detection supplies the rest, as for jvmfit init.
type Flags struct {
	Args []string // --arg, after the port wiring
	Env  []string // --env K=V
	Gets []string // --get PATH
	// Dir keeps what is generated (the scenario file and, for the user
	// to read or adopt, the app.yaml init would write); each input gets
	// its own subdirectory, the same one on every run, so a rerun finds
	// its stored trials. It is made 0700 if new: --env values are in it.
	Dir string
	// Ctx bounds the detection of an image's jar (it runs the engine);
	// nil is context.Background.
	Ctx context.Context
	// Engine detects an image's jar: docker, podman or "" (as --engine).
	Engine string
	// Java is the command's --java: when it is empty and the java jvmfit
	// would find is too old for the jar's classes, a newer installed JDK
	// is named (PickJava), as init writes it.
	Java string
}

// Given says whether any of the app-shaping flags was set.
func (f Flags) Given() bool { return len(f.Args) > 0 || len(f.Env) > 0 || len(f.Gets) > 0 }

// Check refuses malformed flags before anything is detected or run.
func (f Flags) Check() error {
	if err := CheckGets(f.Gets); err != nil {
		return err
	}
	_, err := ParseEnv(f.Env)
	return err
}

// ParseEnv reads --env K=V flags.
func ParseEnv(kvs []string) (map[string]string, error) {
	env := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("--env %q: write NAME=value", kv)
		}
		env[k] = v
	}
	return env, nil
}

// Jar describes a jar given by flags: its framework's port wiring and
// readiness URL, the user's arguments and environment after them, and a
// scenario of one GET per --get (the framework's own endpoint when none;
// scenario, when given, replaces it). It is what `jvmfit init` would write,
// built the same way, and kept in f.Dir.
func (f Flags) Jar(jar, scenario string) (*app.App, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if scenario != "" && len(f.Gets) > 0 {
		return nil, errors.New("give --get or --scenario, not both: --get writes a scenario of GETs, --scenario is your own")
	}
	found, err := detect.Jar(jar)
	if err != nil {
		return nil, fmt.Errorf("--jar %w", err)
	}
	return f.detected(Input{Jar: jar, Found: found, Name: jarName(jar, found)}, "--jar "+jar, scenario)
}

// Image is Jar for an image given without --ready: the jar its entrypoint
// runs is copied out and detected, as jvmfit init --image does.
func (f Flags) Image(image, scenario string) (*app.App, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if scenario != "" && len(f.Gets) > 0 {
		return nil, errors.New("give --get or --scenario, not both: --get writes a scenario of GETs, --scenario is your own")
	}
	ctx := f.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	found, err := DetectImageOn(ctx, f.Engine, image)
	if err != nil {
		return nil, fmt.Errorf("--image %s: %w", image, err)
	}
	return f.detected(Input{Image: image, Found: found, Name: imageName(image)}, "--image "+image, scenario)
}

// detected completes an input whose framework was detected, refusing what
// detection could not tell.
func (f Flags) detected(in Input, what, scenario string) (*app.App, error) {
	if in.Found.Framework == detect.Unknown {
		return nil, fmt.Errorf("%s: no framework jvmfit knows, so its port and readiness are unknown: give --ready URL, or run jvmfit init %s and use --app app.yaml", what, what)
	}
	env, _ := ParseEnv(f.Env)
	in.Gets, in.Rate, in.SLO, in.Args, in.Env, in.ReadyTimeout = f.Gets, DefaultRate, DefaultSLO, f.Args, env, app.DefaultReadyTimeout
	if _, guessed := in.ReadyPath(); guessed {
		return nil, fmt.Errorf("%s: %s has no health endpoint jvmfit knows: give --get PATH (a URL that answers 2xx once it serves) or --ready URL", what, FrameworkName(in.Found.Framework))
	}
	if in.Image == "" {
		if err := PickJava(&in, f.Java); err != nil {
			return nil, err
		}
	}
	return f.build(in, scenario)
}

// build writes the descriptor and scenario init would write into their own
// directory under f.Dir and loads them as a descriptor is loaded.
func (f Flags) build(in Input, scenario string) (*app.App, error) {
	if f.Dir == "" {
		return nil, errors.New("scaffold: no directory for the generated scenario")
	}
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return nil, err
	}
	in.Dir = filepath.Join(f.Dir, in.Name+"-"+inputKey(in))
	files, err := Write(in, true)
	if err != nil {
		return nil, fmt.Errorf("cannot write the generated app into %s: %w", in.Dir, err)
	}
	a, err := app.Load(files.App)
	if err != nil {
		return nil, err
	}
	if scenario != "" {
		if a.Scenario, err = filepath.Abs(scenario); err != nil {
			return nil, err
		}
		if _, err := os.Stat(a.Scenario); err != nil {
			return nil, fmt.Errorf("--scenario: %s does not exist", scenario)
		}
	}
	// The app runs where its jar is, as with --jar --ready; only what
	// jvmfit generated lives in in.Dir.
	if in.Jar != "" {
		a.Dir = filepath.Dir(mustAbs(in.Jar))
	} else if wd, err := os.Getwd(); err == nil {
		a.Dir = wd // as for --image --ready
	}
	return a, nil
}

// inputKey names an input's directory: the same flags, the same files.
func inputKey(in Input) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%q\x00%q\x00", mustAbs(in.Jar), in.Image, in.Args, in.Gets)
	for _, k := range sortedKeys(in.Env) {
		fmt.Fprintf(h, "%s=%s\x00", k, in.Env[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// jarName is the app's name from its jar; Quarkus's quarkus-run.jar is
// named by the project's directory (target/quarkus-app/quarkus-run.jar).
func jarName(jar string, r *detect.Result) string {
	name := strings.TrimSuffix(filepath.Base(jar), ".jar")
	if r.Framework == detect.Quarkus && name == "quarkus-run" {
		name = filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(mustAbs(jar)))))
	}
	return name
}

// imageName is an image's last path element without its tag.
func imageName(image string) string {
	n := image[strings.LastIndex(image, "/")+1:]
	if i := strings.IndexAny(n, ":@"); i > 0 {
		n = n[:i]
	}
	return n
}

func mustAbs(p string) string {
	if p == "" {
		return ""
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// Resolve is app.Resolve for a command that takes these flags: a jar
// without --ready is described by its framework (Jar); with --ready, and
// for an image, --get writes the scenario and --arg and --env are added to
// the app's own. A descriptor takes none of them: it has its own.
func (f Flags) Resolve(s app.Source) (*app.App, error) {
	if f.Given() && s.Jar == "" && s.Image == "" {
		return nil, errors.New("--get, --arg and --env go with --jar or --image: a descriptor (--app) has its own args, env and scenario")
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	s.Detected, s.DetectedImage = f.Jar, f.Image
	if f.Engine == "" {
		f.Engine = s.Engine
	}
	byReady := s.Ready != "" && (s.Jar != "" || s.Image != "") && s.Descriptor == ""
	if byReady && len(f.Gets) > 0 {
		if s.Scenario != "" {
			return nil, errors.New("give --get or --scenario, not both: --get writes a scenario of GETs, --scenario is your own")
		}
		sc, err := f.scenarioOnly(s)
		if err != nil {
			return nil, err
		}
		s.Scenario = sc
	}
	a, err := app.Resolve(s)
	if err != nil || !byReady {
		return a, err
	}
	env, _ := ParseEnv(f.Env)
	a.Args = append(a.Args, f.Args...)
	if len(env) > 0 && a.Env == nil {
		a.Env = map[string]string{}
	}
	for k, v := range env {
		a.Env[k] = v
	}
	return a, nil
}

// scenarioOnly writes the scenario of --get for an app whose readiness
// the user gave (--ready), and returns its path.
func (f Flags) scenarioOnly(s app.Source) (string, error) {
	name := strings.TrimSuffix(filepath.Base(s.Jar), ".jar")
	if s.Image != "" {
		name = imageName(s.Image)
	}
	in := Input{Jar: s.Jar, Image: s.Image, Name: name, Gets: f.Gets, Rate: DefaultRate}
	env, _ := ParseEnv(f.Env)
	in.Args, in.Env = f.Args, env
	if f.Dir == "" {
		return "", errors.New("scaffold: no directory for the generated scenario")
	}
	dir := filepath.Join(f.Dir, name+"-"+inputKey(in))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "scenario.yaml")
	return path, os.WriteFile(path, []byte(scenarioYAML(in)), 0o644)
}
