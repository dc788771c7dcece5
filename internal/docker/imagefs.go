package docker

import (
	"archive/tar"
	"io"
	"path"
	"sort"
	"strings"
)

// tree is an image's file tree as findJava reads it: names, kinds and
// link targets, no contents. Three trees answer it: the headers of a whole
// export (imageFS, the tests' fixtures), an image mounted on the host
// (podman, mounttree.go) and a created container asked one path at a time
// (docker cp, cptree.go). The last two read only the paths the lookup
// visits, not the image: under emulation an image's export outlasts
// minutes.
type tree interface {
	// lstat is p's entry, a link not followed; p is absolute and clean,
	// its parent resolved (no link in it).
	lstat(p string) (fsEntry, bool)
	// each calls fn with the paths matching pattern (path.Match) that are
	// in the tree as written, below no link, until fn returns true.
	each(pattern string, fn func(p string) bool)
}

type fsEntry struct {
	dir, exec bool
	link      string // a symbolic link's target, as written
}

// imageFS is a whole tree read from the tar of `export`.
type imageFS map[string]fsEntry

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
		if p, e, ok := headerEntry("/", h); ok {
			fs[p] = e
		}
	}
}

// headerEntry is a tar header's entry, its name taken below dir.
func headerEntry(dir string, h *tar.Header) (string, fsEntry, bool) {
	p := path.Join(dir, path.Clean("/"+h.Name))
	switch h.Typeflag {
	case tar.TypeDir:
		return p, fsEntry{dir: true}, true
	case tar.TypeSymlink:
		return p, fsEntry{link: h.Linkname}, true
	case tar.TypeReg, tar.TypeLink:
		return p, fsEntry{exec: h.Mode&0o111 != 0}, true
	}
	return p, fsEntry{}, false
}

func (fs imageFS) lstat(p string) (fsEntry, bool) {
	e, ok := fs[p]
	return e, ok
}

func (fs imageFS) each(pattern string, fn func(string) bool) {
	var out []string
	for p := range fs {
		if ok, _ := path.Match(pattern, p); ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	for _, p := range out {
		if fn(p) {
			return
		}
	}
}

// maxLinks bounds the links followed in one lookup (the kernel's is 40).
const maxLinks = 40

// resolve follows symbolic links in every component of p, as the kernel
// would inside the container, and returns the real path and whether it
// exists.
func resolve(fs tree, p string) (string, bool) {
	hops := 0
	parts := strings.Split(strings.Trim(path.Clean("/"+p), "/"), "/")
	cur := "/"
	for i := 0; i < len(parts); i++ {
		if parts[i] == "" {
			continue
		}
		next := path.Join(cur, parts[i])
		e, ok := fs.lstat(next)
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
func executable(fs tree, p string) (string, bool) {
	real, ok := resolve(fs, p)
	if !ok {
		return real, false
	}
	e, _ := fs.lstat(real)
	return real, !e.dir && e.exec
}
