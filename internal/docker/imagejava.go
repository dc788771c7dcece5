package docker

import (
	"path"
	"strings"
)

// defaultPath is the PATH a container gets when its image sets none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// javaFound is the java an image runs and how it was found.
type javaFound struct {
	java string // the real path of the java binary, links resolved
	how  string
}

// findJava finds the java an image runs the way its entrypoint would: the
// java its entrypoint or command names (a path, or "java" through the
// image's PATH); then $JAVA_HOME/bin/java; then where images put a JDK
// (Temurin's /opt/java/openjdk, Debian's and Red Hat's /usr/lib/jvm/*, a
// buildpack's JRE or JDK layer, which the buildpack's launcher puts on
// PATH only when the container starts).
func findJava(fs tree, start ImageStart) (javaFound, bool) {
	env := map[string]string{}
	for _, kv := range start.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if w := javaWord(start.Argv); w != "" {
		if strings.Contains(w, "/") {
			p := w
			if !path.IsAbs(p) {
				p = path.Join("/", start.WorkingDir, p)
			}
			if real, ok := executable(fs, p); ok {
				return javaFound{real, "the entrypoint's " + w}, true
			}
		} else {
			dirs, ok := env["PATH"]
			if !ok {
				dirs = defaultPath
			}
			for _, d := range strings.Split(dirs, ":") {
				if d == "" {
					continue
				}
				if real, ok := executable(fs, path.Join(d, "java")); ok {
					return javaFound{real, "java on the image's PATH (" + path.Join(d, "java") + ")"}, true
				}
			}
		}
	}
	if h := env["JAVA_HOME"]; h != "" {
		if real, ok := executable(fs, path.Join(h, "bin", "java")); ok {
			return javaFound{real, "JAVA_HOME=" + h}, true
		}
	}
	for _, g := range []string{"/opt/java/openjdk/bin/java", "/usr/lib/jvm/*/bin/java", "/usr/java/*/bin/java", "/layers/*/jre/bin/java", "/layers/*/jdk/bin/java"} {
		var found javaFound
		fs.each(g, func(p string) bool {
			if real, ok := executable(fs, p); ok {
				found = javaFound{real, p + " (a usual place)"}
				return true
			}
			return false
		})
		if found.java != "" {
			return found, true
		}
	}
	return javaFound{}, false
}

// javaWord is the java an argv runs: the first word named java, in the
// exec form or inside a shell form's command string.
func javaWord(argv []string) string {
	for _, a := range argv {
		for _, w := range strings.Fields(strings.NewReplacer("'", " ", `"`, " ", ";", " ", "&&", " ").Replace(a)) {
			if w == "java" || strings.HasSuffix(w, "/java") {
				return w
			}
		}
	}
	return ""
}

// javaHomeOf is the JDK's home for its real java binary: bin/java's parent.
func javaHomeOf(java string) string { return path.Dir(path.Dir(java)) }
