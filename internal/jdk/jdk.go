// Package jdk finds a java launcher, reads its version and vendor, and
// knows which -XX options each version accepts.
package jdk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// JDK describes one Java runtime.
type JDK struct {
	Path    string // the java launcher as given (absolute)
	Home    string // the runtime's home (parent of bin/)
	Version int    // feature version: 8, 11, 17, 21, 25...
	Update  int    // update number: 15 for 17.0.15, 392 for 1.8.0_392
	Full    string // version as written by the JDK: "17.0.15", "1.8.0_392"
	Vendor  string // IMPLEMENTOR from release, or the -version banner's VM line
}

// ErrNoJava is returned when no java launcher can be found.
var ErrNoJava = errors.New("no java found: pass --java PATH, set JAVA_HOME, or put java on PATH")

// Find picks the java launcher: the flag if given, then $JAVA_HOME/bin/java,
// then java on PATH.
func Find(javaFlag string) (string, error) {
	if javaFlag != "" {
		return checkExecutable(javaFlag, "--java")
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		return checkExecutable(filepath.Join(home, "bin", "java"), "JAVA_HOME")
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", ErrNoJava
	}
	return filepath.Abs(p)
}

func checkExecutable(p, from string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("bad java path %q from %s: %v", p, from, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("java %s (from %s) does not exist: give the path of a java launcher", p, from)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return "", fmt.Errorf("java %s (from %s) is not an executable file", p, from)
	}
	return abs, nil
}

// Inspect reads the version and vendor of the runtime that javaPath
// launches: from its release file when there is one (fast), else from
// `java -version`.
func Inspect(javaPath string) (JDK, error) { return InspectContext(context.Background(), javaPath) }

// InspectContext is Inspect with a `java -version` probe that ctx ends.
func InspectContext(ctx context.Context, javaPath string) (JDK, error) {
	abs, err := checkExecutable(javaPath, "--java")
	if err != nil {
		return JDK{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return JDK{}, fmt.Errorf("cannot resolve %s: %v", abs, err)
	}
	j := JDK{Path: abs, Home: filepath.Dir(filepath.Dir(real))}
	rel := filepath.Join(j.Home, "release")
	switch b, err := os.ReadFile(rel); {
	case err == nil:
		if readRelease(string(b), &j) {
			return j, nil
		}
	case !os.IsNotExist(err):
		return JDK{}, fmt.Errorf("cannot read %s: %v (fix its permissions or pass another --java)", rel, err)
	}
	if err := runVersion(ctx, &j); err != nil {
		return JDK{}, err
	}
	return j, nil
}
