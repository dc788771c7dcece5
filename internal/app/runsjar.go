package app

import (
	"path/filepath"
	"strings"
)

// RunsJar is the jar on this machine the app runs: its jar:, or the -jar
// of its command, made absolute against its directory. "" for an image
// (its jar is inside the image) and for a command with no -jar or a
// placeholder in its place, so a caller never reads the wrong file.
func (a *App) RunsJar() string {
	if a == nil || a.Image != "" {
		return ""
	}
	jar := a.Jar
	if jar == "" {
		for i, w := range a.Command {
			if w == "-jar" && i+1 < len(a.Command) {
				jar = a.Command[i+1]
				break
			}
		}
	}
	if jar == "" || strings.Contains(jar, "${") {
		return ""
	}
	if !filepath.IsAbs(jar) {
		jar = filepath.Join(a.Dir, jar)
	}
	return jar
}
