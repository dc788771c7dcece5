package main

import (
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/detect"
)

// appPools are the thread-pool knobs of the framework the app's jar is
// built on (its descriptor's jar:, or the -jar its command runs), for
// tune's pool candidate. nil when there is no jar on this machine to read
// (an image, a command without -jar or with a placeholder for it) or its
// framework has no knobs jvmfit knows: tune then caps no pools.
func appPools(a *app.App) []detect.Knob {
	if a == nil || a.Image != "" {
		return nil
	}
	jar := a.Jar
	if jar == "" {
		jar = jarOf(a.Command)
	}
	if jar == "" || strings.Contains(jar, "${") {
		return nil
	}
	if !filepath.IsAbs(jar) {
		jar = filepath.Join(a.Dir, jar)
	}
	r, err := detect.Jar(jar)
	if err != nil {
		return nil
	}
	return r.Pools()
}
