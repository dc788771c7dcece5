package trial

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
)

// javaFor picks the JDK that will actually run the app, so that the plan
// is made for it: a java the descriptor's command hard-codes, else --java
// (flag), else the descriptor's java:, else $JAVA_HOME and PATH. A --java
// or java: that the command would not run is refused, not ignored.
func javaFor(flag string, a *app.App) (string, error) {
	cmd, err := commandJava(a)
	if err != nil {
		return "", err
	}
	if cmd != "" {
		for _, other := range []struct{ path, from string }{{flag, "--java"}, {a.Java, "the descriptor's java:"}} {
			if other.path != "" && !sameFile(other.path, cmd) {
				return "", fmt.Errorf("%s %s: the descriptor's command runs %s itself: drop %s, or write ${java} in the command", other.from, other.path, cmd, other.from)
			}
		}
		return jdk.Find(cmd)
	}
	if flag == "" {
		flag = a.Java
	}
	return jdk.Find(flag)
}

// commandJava is the java binary the descriptor's command names as its
// program ("" when it is ${java} or not a java launcher, e.g. a shell).
func commandJava(a *app.App) (string, error) {
	if len(a.Command) == 0 {
		return "", nil
	}
	c := a.Command[0]
	if strings.Contains(c, "${") || filepath.Base(c) != "java" {
		return "", nil
	}
	if !strings.Contains(c, "/") {
		p, err := exec.LookPath(c)
		if err != nil {
			return "", fmt.Errorf("%s: command[0]: %s is not on PATH", a.File, c)
		}
		return p, nil
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(a.Dir, c)
	}
	return c, nil
}

// commandOptions are the JVM options a java command gives itself (before
// its main class or jar), for the planner to plan around.
func commandOptions(a *app.App) []string {
	if len(a.Command) < 2 {
		return nil
	}
	if j, _ := commandJava(a); j == "" && a.Command[0] != "${java}" {
		return nil
	}
	var words []string
	for _, w := range a.Command[1:] {
		if w != "${jvm_options}" {
			words = append(words, w)
		}
	}
	opts, _ := launch.SplitArgs(words)
	return opts
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
