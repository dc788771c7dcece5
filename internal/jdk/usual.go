package jdk

import (
	"path/filepath"
	"sort"
)

// usualHomes are where JDKs are installed by package managers and
// official images: Debian's and Red Hat's packages, Temurin's images.
var usualHomes = []string{"usr/lib/jvm/*", "usr/java/*", "opt/java/openjdk", "opt/jdk*"}

// Installed lists the java launchers in the usual places under root ("/"
// for this host), each as a path under root, in a stable order; symlinked
// duplicates are listed once.
func Installed(root string) []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range usualHomes {
		homes, _ := filepath.Glob(filepath.Join(root, g))
		sort.Strings(homes)
		for _, h := range homes {
			java := filepath.Join(h, "bin", "java")
			real, err := filepath.EvalSymlinks(java)
			if err != nil || seen[real] {
				continue
			}
			seen[real] = true
			out = append(out, java)
		}
	}
	return out
}

// AtLeast picks, among the JDKs installed under root, the one of the
// lowest feature version that is at least feature: the closest to what
// the app was built for.
func AtLeast(root string, feature int) (JDK, bool) {
	var best JDK
	found := false
	for _, p := range Installed(root) {
		j, err := Inspect(p)
		if err != nil || j.Version < feature {
			continue
		}
		if !found || j.Version < best.Version {
			best, found = j, true
		}
	}
	return best, found
}
