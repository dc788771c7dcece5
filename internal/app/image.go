package app

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Container is how an image app's container is run, beyond the trial's
// limits (docs/docker.md).
type Container struct {
	User string // --user, "" = the image's own
	// Tmpfs are the in-memory mounts (PATH or PATH:OPTIONS); nil = /tmp
	// only, an empty list = none (the app then writes to the overlay).
	Tmpfs []string
	// Volumes are bind mounts HOST:CONTAINER[:ro], host paths absolute.
	Volumes []string
	// Port is the port the app listens on inside the container: it is
	// published on 127.0.0.1:${port}. 0 = the host's network, where the
	// app must listen on ${port} itself.
	Port int
}

// toolOptionsEnv is how JVM options reach a JVM whatever the image's
// entrypoint: every HotSpot reads it at start.
const toolOptionsEnv = "JAVA_TOOL_OPTIONS"

// parseImage reads the container fields, which only an image app has.
func parseImage(a *App, r *raw) error {
	if r.Image == "" {
		for _, f := range []struct {
			name string
			set  bool
		}{{"user", r.User != ""}, {"tmpfs", r.Tmpfs != nil}, {"volumes", r.Volumes != nil}, {"container_port", r.ContainerPort != nil}} {
			if f.set {
				return fieldError(f.name, "only an image app has it: add image: NAME[:TAG], or drop %s", f.name)
			}
		}
		return nil
	}
	if r.Java != "" {
		return fieldError("java", "an image runs its own JDK: drop java: (jvmfit reads the image's JDK)")
	}
	if strings.ContainsAny(r.Image, " \t") {
		return fieldError("image", "%q is not an image reference (NAME[:TAG])", r.Image)
	}
	if _, ok := r.Env[toolOptionsEnv]; ok {
		return fieldError("env."+toolOptionsEnv, "jvmfit gives the JVM its options there: put yours in jvm_options")
	}
	a.Image = r.Image
	c := Container{User: r.User, Tmpfs: r.Tmpfs}
	for i, t := range r.Tmpfs {
		if p, _, _ := strings.Cut(t, ":"); !strings.HasPrefix(p, "/") {
			return fieldError(fmt.Sprintf("tmpfs[%d]", i), "%q is not an absolute path in the container (e.g. /tmp or /tmp:size=64m)", t)
		}
	}
	for i, v := range r.Volumes {
		vol, err := volume(a.Dir, v)
		if err != nil {
			return fieldError(fmt.Sprintf("volumes[%d]", i), "%v", err)
		}
		c.Volumes = append(c.Volumes, vol)
	}
	if r.ContainerPort != nil {
		p, err := strconv.Atoi(r.ContainerPort.Value)
		if err != nil || p < 1 || p > 65535 {
			return fieldError("container_port", "%q is not a port number (1..65535)", r.ContainerPort.Value)
		}
		c.Port = p
	}
	a.Container = &c
	return nil
}

// volume checks HOST:CONTAINER[:ro|rw] and makes the host path absolute.
func volume(dir, v string) (string, error) {
	parts := strings.Split(v, ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || !strings.HasPrefix(parts[1], "/") {
		return "", fmt.Errorf("%q: write HOST:CONTAINER[:ro] (container path absolute)", v)
	}
	if len(parts) == 3 && parts[2] != "ro" && parts[2] != "rw" {
		return "", fmt.Errorf("%q: the mode is ro or rw", v)
	}
	parts[0] = resolve(dir, parts[0])
	if _, err := os.Stat(parts[0]); err != nil {
		return "", fmt.Errorf("%q: %s does not exist", v, parts[0])
	}
	return strings.Join(parts, ":"), nil
}

// FromImage builds a descriptor for an image with no app.yaml: `--image
// NAME --ready URL [--scenario s.yaml]`. The port is read from the URL; with
// containerPort the app's port in the container is published on it,
// otherwise the container shares the host's network and the app listens
// on that port itself.
func FromImage(image, ready, scenario string, containerPort int) (*App, error) {
	if image == "" || strings.ContainsAny(image, " \t") {
		return nil, fmt.Errorf("--image: give the app's image as NAME[:TAG]")
	}
	if ready == "" {
		return nil, fmt.Errorf("--ready: give the URL whose first 2xx answer means the app started, e.g. http://127.0.0.1:8080/health")
	}
	// ${port} (a free host port per trial) is checked as a number.
	u, err := url.Parse(strings.ReplaceAll(ready, "${port}", "1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--ready: %q is not an http:// URL", ready)
	}
	if containerPort < 0 || containerPort > 65535 {
		return nil, fmt.Errorf("--container-port: %d is not a port number", containerPort)
	}
	name := image
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name, _, _ = strings.Cut(name, ":")
	wd, _ := os.Getwd()
	a := &App{Name: name, Dir: wd, Image: image, Ready: ready, ReadyTimeout: DefaultReadyTimeout,
		Container: &Container{Port: containerPort}}
	if !strings.Contains(ready, "${port}") {
		a.Port, _ = strconv.Atoi(u.Port())
	}
	if containerPort > 0 && a.Port == 0 && !strings.Contains(ready, "${port}") {
		return nil, fmt.Errorf("--ready %s: with --container-port give the host port in the URL (or ${port} for a free one)", ready)
	}
	if err := a.finishFromFlags(scenario); err != nil {
		return nil, err
	}
	return a, nil
}

// imageLaunch is Expand for an image app: Argv holds only the arguments
// that follow the image's entrypoint, and Env only what is set in the
// container (never jvmfit's own environment, which would override the
// image's PATH and JAVA_HOME), with the JVM options in JAVA_TOOL_OPTIONS.
func (a *App) imageLaunch(opts []string, set []string, sub func(string) string, port int) Launch {
	var argv []string
	for _, arg := range a.Args {
		argv = append(argv, sub(arg))
	}
	env := append([]string(nil), set...)
	if len(opts) > 0 {
		env = append(env, toolOptionsEnv+"="+ToolOptions(opts))
	}
	return Launch{Argv: argv, Env: env, Set: set, Ready: sub(a.Ready), Port: port}
}

// ToolOptions joins JVM options for JAVA_TOOL_OPTIONS, which HotSpot
// splits at white space; an option holding some is quoted, as HotSpot
// (JDK 9+) reads quotes there.
func ToolOptions(opts []string) string {
	q := make([]string, len(opts))
	for i, o := range opts {
		switch {
		case !strings.ContainsAny(o, " \t\n"):
			q[i] = o
		case !strings.Contains(o, `"`):
			q[i] = `"` + o + `"`
		default:
			q[i] = "'" + o + "'"
		}
	}
	return strings.Join(q, " ")
}
