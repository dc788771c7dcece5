package jdk

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readRelease fills j from a release file; false when it has no usable
// JAVA_VERSION.
func readRelease(text string, j *JDK) bool {
	vals := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok {
			vals[k] = strings.Trim(v, `"`)
		}
	}
	feat, upd, ok := ParseVersion(vals["JAVA_VERSION"])
	if !ok {
		return false
	}
	j.Version, j.Update, j.Full = feat, upd, vals["JAVA_VERSION"]
	j.Vendor = vals["IMPLEMENTOR"]
	if j.Vendor == "" {
		j.Vendor = "unknown"
	}
	return true
}

var versionLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\S+ version "([^"]+)"`) })

// runVersion runs `java -version` for runtimes with no usable release file.
// The probe ends with ctx (a signal to jvmfit exec ends it) or after 20 s,
// and takes what it started with it: it runs in a process group of its
// own, killed whole (a java that is a wrapper script leaves no child
// behind), and dies with jvmfit if jvmfit is killed outright (Pdeathsig,
// of the thread that starts it, held for the probe's run).
func runVersion(ctx context.Context, j *JDK) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, j.Path, "-version")
	cmd.Stdout, cmd.Stderr = &out, &out
	// Options in the environment would change or pollute the banner.
	cmd.Env = append(cmd.Environ(), "JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=", "_JAVA_OPTIONS=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second // a grandchild holding the output pipe does not hold jvmfit
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s -version stopped: %w", j.Path, context.Cause(ctx))
		}
		return fmt.Errorf("%s -version failed: %v: %s", j.Path, err, firstLine(out.String()))
	}
	return parseBanner(out.String(), j)
}

// parseBanner reads the output of java -version.
func parseBanner(text string, j *JDK) error {
	m := versionLine().FindStringSubmatch(text)
	if m == nil {
		return fmt.Errorf("%s -version printed no version line: %q", j.Path, firstLine(text))
	}
	feat, upd, ok := ParseVersion(m[1])
	if !ok {
		return fmt.Errorf("%s: cannot read version %q", j.Path, m[1])
	}
	j.Version, j.Update, j.Full = feat, upd, m[1]
	j.Vendor = "unknown"
	for _, line := range strings.Split(text, "\n") {
		// "OpenJDK 64-Bit Server VM Temurin-21.0.1+12 (build ...)" names the build.
		if strings.Contains(line, " VM ") {
			j.Vendor = strings.TrimSpace(strings.SplitN(line, "(build", 2)[0])
			break
		}
	}
	return nil
}

// ParseVersion reads a Java version string: "1.8.0_392" → (8, 392),
// "17.0.15" → (17, 15), "25" → (25, 0), "21-ea" → (21, 0).
func ParseVersion(s string) (feature, update int, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, false
	}
	if rest, legacy := strings.CutPrefix(s, "1."); legacy {
		// 1.8.0_392-b08
		main, upd, _ := strings.Cut(rest, "_")
		f, err := strconv.Atoi(strings.SplitN(main, ".", 2)[0])
		if err != nil || f < 1 {
			return 0, 0, false
		}
		u, _ := strconv.Atoi(leadingDigits(upd))
		return f, u, true
	}
	parts := strings.Split(leadingVersion(s), ".")
	f, err := strconv.Atoi(parts[0])
	if err != nil || f < 9 {
		return 0, 0, false
	}
	if len(parts) >= 3 {
		u, _ := strconv.Atoi(parts[2])
		return f, u, true
	}
	return f, 0, true
}

// leadingVersion cuts "17.0.15+6-Debian" and "21-ea" to the dotted number.
func leadingVersion(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i >= 0 {
		return s[:i]
	}
	return s
}

func leadingDigits(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i >= 0 {
		return s[:i]
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
