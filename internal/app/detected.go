package app

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/detect"
)

// needReady is the error for a jar whose readiness URL cannot be known.
const needReady = "--ready: give the URL whose first 2xx answer means the app started, e.g. http://127.0.0.1:8080/health"

// fromDetected describes a jar given without --ready by what its framework
// says (internal/detect, as jvmfit init writes it): the port wiring, so
// each trial gets a free port, and the framework's readiness URL. A jar
// whose framework or health endpoint is not found needs --ready.
func fromDetected(jar, scenario string) (*App, error) {
	r, err := detect.Jar(jar)
	if err != nil {
		return nil, fmt.Errorf("%s (%v)", needReady, err)
	}
	if r.Framework == detect.Unknown {
		return nil, fmt.Errorf("%s (%s: no framework jvmfit knows)", needReady, filepath.Base(jar))
	}
	for _, g := range r.Guessed {
		if strings.HasPrefix(g, "the readiness URL") {
			return nil, fmt.Errorf("%s (%s is %s, with %s)", needReady, filepath.Base(jar), r.Framework, strings.TrimPrefix(g, "the readiness URL: "))
		}
	}
	a := &App{
		Name:         strings.TrimSuffix(filepath.Base(jar), ".jar"),
		Dir:          filepath.Dir(jar),
		Jar:          jar,
		Args:         r.Args,
		Env:          r.Env,
		Port:         r.Port,
		Ready:        "http://127.0.0.1:${port}" + r.Ready,
		ReadyTimeout: DefaultReadyTimeout,
	}
	if err := a.finishFromFlags(scenario); err != nil {
		return nil, err
	}
	return a, nil
}
