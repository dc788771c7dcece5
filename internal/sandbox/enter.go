//go:build linux

package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// enterScript moves the shell into every cgroup directory given before
// "--", reports success on fd 3, and only then execs the program: the app's
// first instruction runs inside the group, so the JVM's ergonomics see the
// limits. Why a shell rather than the alternatives:
//   - moving the pid after fork races the JVM's own limit detection;
//   - clone(CLONE_INTO_CGROUP) (SysProcAttr.UseCgroupFD) takes one v2
//     directory only, while v1 needs one directory per hierarchy;
//   - re-executing jvmfit itself would tie this package to main.
//
// The shell's few pages charged before the move stay outside the group,
// which is harmless.
const enterScript = `while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; done; shift; printf ok >&3; exec 3>&-; exec "$@"`

// enterArgv wraps argv so that it starts inside dirs.
func enterArgv(dirs []string, argv []string) []string {
	out := []string{"/bin/sh", "-c", enterScript, "jvmfit-enter"}
	out = append(out, dirs...)
	out = append(out, "--")
	return append(out, argv...)
}

// awaitEntered reads the shell's report: "ok" once it is in every group;
// EOF without it means the shell failed and exited.
func awaitEntered(r *os.File) error {
	b, _ := io.ReadAll(io.LimitReader(r, 16))
	r.Close()
	if string(b) != "ok" {
		return fmt.Errorf("could not move the process into its cgroup")
	}
	return nil
}

// resolveProgram finds argv[0] the way the kernel will after chdir(dir),
// so a typo gives one clear error instead of a shell's exit 127.
func resolveProgram(argv0, dir string) (string, error) {
	if argv0 == "" {
		return "", fmt.Errorf("no program to run")
	}
	if !strings.Contains(argv0, "/") {
		p, err := exec.LookPath(argv0)
		if err != nil {
			return "", fmt.Errorf("cannot find %q in PATH: give its full path", argv0)
		}
		return p, nil
	}
	p := argv0
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("cannot run %s: %v", argv0, err)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return "", fmt.Errorf("cannot run %s: not an executable file", argv0)
	}
	return argv0, nil
}
