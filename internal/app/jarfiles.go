package app

import (
	"archive/zip"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/detect"
)

// CheckJarFiles refuses, in one line, a jar that is missing or whose
// manifest's Class-Path names files that are not there. Java skips a
// missing Class-Path entry without a word, so an app whose libraries were
// not copied beside it (a worktree holding only the jar) starts, fails with
// NoClassDefFoundError before it is ready, and every limit of a search
// comes out KO for a reason that has nothing to do with memory.
func CheckJarFiles(jar string) error {
	if _, err := os.Stat(jar); err != nil {
		return fmt.Errorf("jar: %s does not exist: build the app first (make workloads for the samples)", jar)
	}
	entries, err := manifestClassPath(jar)
	if err != nil {
		return fmt.Errorf("jar: %s: %v", jar, err)
	}
	var missing []string
	for _, e := range entries {
		p, err := url.PathUnescape(e)
		if err != nil {
			p = e
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(jar), filepath.FromSlash(p))
		}
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("jar: %s: its manifest's Class-Path names %d file(s) that are not there (first: %s): copy the jar with the libraries beside it, or rebuild (make workloads for the samples)",
			jar, len(missing), missing[0])
	}
	return nil
}

// manifestClassPath reads the Class-Path entries of a jar's manifest: none
// when the jar has no manifest or no Class-Path.
func manifestClassPath(jar string) ([]string, error) {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return nil, fmt.Errorf("not a jar (%v)", err)
	}
	defer z.Close()
	f, err := z.Open("META-INF/MANIFEST.MF")
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	m, err := detect.ReadManifest(f)
	if err != nil {
		return nil, fmt.Errorf("manifest: %v", err)
	}
	return strings.Fields(m["class-path"]), nil
}
