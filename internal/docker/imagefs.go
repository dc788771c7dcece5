package docker

import (
	"archive/tar"
	"io"
	"path"
	"sort"
	"strings"
)

// imageFS is an image's file tree as names, kinds and link targets (no
// contents), read from the tar of `export`: enough to find the java its
// entrypoint runs, through PATH and every symbolic link, as the kernel
// would inside the container.
type imageFS map[string]fsEntry

type fsEntry struct {
	dir, exec bool
	link      string // a symbolic link's target, as written
}

// readImageFS reads a tar's headers, skipping the contents.
func readImageFS(r io.Reader) (imageFS, error) {
	fs := imageFS{"/": {dir: true}}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return fs, nil
		}
		if err != nil {
			return nil, err
		}
		p := path.Clean("/" + h.Name)
		switch h.Typeflag {
		case tar.TypeDir:
			fs[p] = fsEntry{dir: true}
		case tar.TypeSymlink:
			fs[p] = fsEntry{link: h.Linkname}
		case tar.TypeReg, tar.TypeLink:
			fs[p] = fsEntry{exec: h.Mode&0o111 != 0}
		}
	}
}

// maxLinks bounds the links followed in one lookup (the kernel's is 40).
const maxLinks = 40

// resolve follows symbolic links in every component of p and returns the
// real path, and whether it exists.
func (fs imageFS) resolve(p string) (string, bool) {
	hops := 0
	parts := strings.Split(strings.Trim(path.Clean("/"+p), "/"), "/")
	cur := "/"
	for i := 0; i < len(parts); i++ {
		if parts[i] == "" {
			continue
		}
		next := path.Join(cur, parts[i])
		e, ok := fs[next]
		if !ok {
			return next, false
		}
		if e.link == "" {
			cur = next
			continue
		}
		if hops++; hops > maxLinks {
			return next, false
		}
		target := e.link
		if !path.IsAbs(target) {
			target = path.Join(cur, target)
		}
		// Restart from the target with the rest of the path after it.
		rest := append(strings.Split(strings.Trim(path.Clean(target), "/"), "/"), parts[i+1:]...)
		parts, i, cur = rest, -1, "/"
	}
	return cur, true
}

// executable says whether p resolves to an executable regular file.
func (fs imageFS) executable(p string) (string, bool) {
	real, ok := fs.resolve(p)
	if !ok {
		return real, false
	}
	e := fs[real]
	return real, !e.dir && e.exec
}

// glob lists the paths matching pattern (path.Match), sorted.
func (fs imageFS) glob(pattern string) []string {
	var out []string
	for p := range fs {
		if ok, _ := path.Match(pattern, p); ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
