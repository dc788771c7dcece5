package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// profileFor reads --profile. Without --record-profile a profile that does
// not read is the user's to fix (exit 2). With it, the file is typically
// the one the last run recorded (exec --profile F --record-profile F): a
// volume's first start has none, a crash may have left anything, a reused
// volume another app's. Each is one warning line and a plan without a
// profile, as the launcher never blocks a start over sizing (--strict
// refuses instead).
func (f Request) profileFor(app string) (*plan.Profile, error) {
	if f.Profile == "" {
		return nil, nil
	}
	prof, err := plan.LoadProfile(f.Profile)
	if err == nil && f.Record != "" && sameFile(f.Profile, f.Record) && prof.App != "" && app != "" && prof.App != app {
		err = fmt.Errorf("%s is the profile of %s, not of %s", f.Profile, prof.App, app)
	}
	switch {
	case err == nil:
		return prof, nil
	case f.Record == "" || f.Strict:
		return nil, inputf("--profile: %w", err)
	}
	fmt.Fprintf(os.Stderr, "jvmfit: warning: --profile: %v; planning without a profile (--strict refuses)\n", oneLine(err))
	return nil, nil
}

func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// appName names the app exec runs, as a recorded profile's "app": the
// jar's file name without .jar, the main class, a module's name, or the
// start command's name.
func appName(env launch.Env, rest []string, script bool) string {
	if script {
		return filepath.Base(rest[0])
	}
	main := launch.MainArgs(rest)
	if len(main) == 0 {
		switch {
		case env.AppJar != "":
			return strings.TrimSuffix(filepath.Base(env.AppJar), ".jar")
		case env.MainClass != "":
			return env.MainClass
		}
		return ""
	}
	switch {
	case (main[0] == "-jar") && len(main) > 1:
		return strings.TrimSuffix(filepath.Base(main[1]), ".jar")
	case (main[0] == "-m" || main[0] == "--module") && len(main) > 1:
		m, _, _ := strings.Cut(main[1], "/")
		return m
	}
	return strings.TrimSuffix(filepath.Base(main[0]), ".java")
}
