package docker

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// mountTree is an image's tree mounted on the host (`podman image mount`):
// its entries are lstat'ed where they are, and only the paths a lookup
// visits are read. Every path given to the host is one whose parent has
// been resolved inside the tree (resolve, each), so an absolute link in
// the image never leads to the host's own files.
type mountTree struct{ root string }

func (m mountTree) host(p string) string { return filepath.Join(m.root, filepath.FromSlash(p)) }

func (m mountTree) lstat(p string) (fsEntry, bool) {
	fi, err := os.Lstat(m.host(p))
	if err != nil {
		return fsEntry{}, false
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(m.host(p))
		if err != nil {
			return fsEntry{}, false
		}
		return fsEntry{link: t}, true
	case fi.IsDir():
		return fsEntry{dir: true}, true
	case fi.Mode().IsRegular():
		return fsEntry{exec: fi.Mode().Perm()&0o111 != 0}, true
	}
	return fsEntry{}, false
}

func (m mountTree) each(pattern string, fn func(string) bool) {
	parts := strings.Split(strings.Trim(path.Clean("/"+pattern), "/"), "/")
	var walk func(dir string, i int) bool
	walk = func(dir string, i int) bool {
		if i == len(parts) {
			return fn(dir)
		}
		last := i == len(parts)-1
		// Below the pattern's last part only real directories are entered,
		// as a tar's names hold nothing below a link.
		enter := func(p string) bool {
			e, ok := m.lstat(p)
			return ok && (last || e.dir) && walk(p, i+1)
		}
		if !strings.ContainsAny(parts[i], `*?[\`) {
			return enter(path.Join(dir, parts[i]))
		}
		ents, err := os.ReadDir(m.host(dir))
		if err != nil {
			return false
		}
		for _, d := range ents {
			if ok, _ := path.Match(parts[i], d.Name()); ok && enter(path.Join(dir, d.Name())) {
				return true
			}
		}
		return false
	}
	walk("/", 0)
}
