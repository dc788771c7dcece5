package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The container engines an image app runs under (--engine).
const (
	EngineDocker = "docker"
	EnginePodman = "podman"
)

// Source is where the app under test comes from, as a command's flags
// give it: a descriptor, a jar (jvmfit run only) or a container image.
type Source struct {
	Descriptor string // --app
	Jar        string // --jar
	Image      string // --image
	Ready      string // --ready, with --jar or --image
	Scenario   string // --scenario
	// ContainerPort and Engine go with an image app (--container-port,
	// --engine).
	ContainerPort int
	Engine        string
	// Run is jvmfit run's choice: its --scenario may replace a
	// descriptor's. The experiments take a descriptor as it is.
	Run bool
	// Detected describes a jar given without --ready from its framework
	// (internal/scaffold, the way jvmfit init does); nil leaves it to
	// FromJar's own detection.
	Detected func(jar, scenario string) (*App, error)
	// DetectedImage is the same for an image given without --ready: the
	// jar its entrypoint runs is detected.
	DetectedImage func(image, scenario string) (*App, error)
}

// Resolve is the one way a command picks its app. Its errors are one line
// and the user's to fix.
func Resolve(s Source) (*App, error) {
	a, err := s.resolve()
	if err != nil {
		return nil, err
	}
	return a, s.check(a)
}

func (s Source) resolve() (*App, error) {
	const ways = "one of --app, --jar or --image"
	given := 0
	for _, v := range []string{s.Descriptor, s.Jar, s.Image} {
		if v != "" {
			given++
		}
	}
	switch {
	case given > 1:
		return nil, fmt.Errorf("give %s, not more", ways)
	case s.Image != "" && s.Ready == "" && s.DetectedImage != nil && s.ContainerPort == 0:
		return s.DetectedImage(s.Image, s.Scenario)
	case s.Image != "":
		return FromImage(s.Image, s.Ready, s.Scenario, s.ContainerPort)
	case s.Jar != "" && s.Ready == "" && s.Detected != nil:
		if err := isJar(s.Jar); err != nil {
			return nil, err
		}
		return s.Detected(s.Jar, s.Scenario)
	case s.Jar != "":
		return FromJar(s.Jar, s.Ready, s.Scenario)
	case s.Descriptor == "":
		return nil, errors.New("give --app app.yaml, --jar app.jar [--get /path], or --image NAME --ready URL (docs/your-service.md)")
	case s.Ready != "":
		return nil, errors.New("--ready goes with --jar or --image; a descriptor has its own ready")
	case s.Scenario != "" && !s.Run:
		return nil, errors.New("--scenario goes with --jar or --image; a descriptor has its own")
	}
	a, err := Load(s.Descriptor)
	if err != nil || s.Scenario == "" {
		return a, err
	}
	// --scenario picks another load for the same app (the descriptor's is
	// its default).
	if a.Scenario, err = filepath.Abs(s.Scenario); err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	if _, err := os.Stat(a.Scenario); err != nil {
		return nil, fmt.Errorf("--scenario: %s does not exist", s.Scenario)
	}
	return a, nil
}

// isJar refuses a --jar that is missing or a directory, in one line.
func isJar(jar string) error {
	st, err := os.Stat(jar)
	switch {
	case err != nil:
		return fmt.Errorf("--jar: %s does not exist", jar)
	case st.IsDir():
		return fmt.Errorf("--jar: %s is a directory: give the runnable jar in it (Quarkus: quarkus-app/quarkus-run.jar)", jar)
	}
	return nil
}

// check refuses the combinations that make no sense, before anything runs.
func (s Source) check(a *App) error {
	if s.Engine != "" && s.Engine != EngineDocker && s.Engine != EnginePodman {
		return fmt.Errorf("--engine %q: give %s", s.Engine, strings.Join([]string{EngineDocker, EnginePodman}, " or "))
	}
	if s.ContainerPort != 0 && s.Image == "" {
		return errors.New("--container-port goes with --image (a descriptor has container_port)")
	}
	if s.Engine != "" && a.Image == "" {
		return errors.New("--engine is for an image app: give --image, or image: in the descriptor")
	}
	return nil
}
