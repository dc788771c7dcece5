package app

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FromJar builds a descriptor for a third-party jar with no app.yaml:
// `--jar app.jar --ready URL --scenario s.yaml`. The jar keeps its own port,
// so the port is read from the readiness URL. Without --ready, the port
// wiring and readiness URL are its framework's: Source.Detected, which
// internal/scaffold provides.
func FromJar(jar, ready, scenario string) (*App, error) {
	if jar == "" {
		return nil, fmt.Errorf("--jar: give the application jar")
	}
	abs, err := filepath.Abs(jar)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("--jar: %s does not exist", jar)
	}
	if ready == "" {
		return nil, errors.New("--ready: give the URL whose first 2xx answer means the app started, e.g. http://127.0.0.1:8080/health")
	}
	u, err := url.Parse(ready)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--ready: %q is not an http:// URL", ready)
	}
	a := &App{
		Name:         strings.TrimSuffix(filepath.Base(abs), ".jar"),
		Dir:          filepath.Dir(abs),
		Jar:          abs,
		Ready:        ready,
		ReadyTimeout: DefaultReadyTimeout,
	}
	if p := u.Port(); p != "" && !strings.Contains(p, "$") {
		a.Port, _ = strconv.Atoi(p)
	}
	if err := a.finishFromFlags(scenario); err != nil {
		return nil, err
	}
	return a, nil
}

// finishFromFlags completes an app described by flags (--jar, --image):
// the --scenario file, made absolute, and the placeholders --ready uses.
func (a *App) finishFromFlags(scenario string) error {
	if scenario != "" {
		s, err := filepath.Abs(scenario)
		if err != nil {
			return err
		}
		if _, err := os.Stat(s); err != nil {
			return fmt.Errorf("--scenario: %s does not exist", scenario)
		}
		a.Scenario = s
	}
	if err := a.checkPlaceholders(); err != nil {
		return fmt.Errorf("--ready: %w", err)
	}
	return nil
}
