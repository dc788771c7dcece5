package tune

import (
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
)

// AppPools are the thread-pool knobs of the framework the app's jar is
// built on, for the pool candidate (knobs.go). nil when there is no jar on
// this machine to read (an image, a command without -jar or with a
// placeholder for it) or its framework has no knobs jvmfit knows: tune
// then caps no pools. A knob the descriptor sets itself (a -D in
// jvm_options or its command, an --name= argument, its environment form)
// is the user's and left alone.
func AppPools(a *app.App) []detect.Knob {
	// An image's jar is inside the image, and a placeholder is no file.
	if a == nil || a.Image != "" {
		return nil
	}
	jar := jvmopts.AppJar(a)
	if jar == "" || strings.Contains(jar, "${") {
		return nil
	}
	r, err := detect.Jar(jar)
	if err != nil {
		return nil
	}
	var out []detect.Knob
	for _, k := range r.Pools() {
		if !setsKnob(a, k) {
			out = append(out, k)
		}
	}
	return out
}

func setsKnob(a *app.App, k detect.Knob) bool {
	if _, ok := a.Env[k.Env]; ok && k.Env != "" {
		return true
	}
	for _, list := range [][]string{a.JVMOptions, a.Command, a.Args} {
		for _, o := range list {
			if strings.HasPrefix(o, "-D"+k.Property+"=") || strings.HasPrefix(o, "--"+k.Property+"=") {
				return true
			}
		}
	}
	return false
}
