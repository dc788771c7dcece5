package docker

import (
	"fmt"
	"path/filepath"
	"strings"
)

// HostPath is where the image's absolute path p goes under the host
// directory dir: dir/p, cleaned. An image's paths are the image author's
// to choose and jvmfit writes them as root, so a p that is not absolute,
// or whose join would not stay inside dir, is an error.
func HostPath(dir, p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("image path %q is not absolute", p)
	}
	dir = filepath.Clean(dir)
	joined := filepath.Join(dir, filepath.Clean(p))
	if !Inside(dir, joined) {
		return "", fmt.Errorf("image path %q leads out of %s", p, dir)
	}
	return joined, nil
}

// Inside is true when the cleaned path p is dir itself or below it.
func Inside(dir, p string) bool {
	dir, p = filepath.Clean(dir), filepath.Clean(p)
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) || dir == "/"
}
