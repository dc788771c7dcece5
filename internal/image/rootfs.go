package image

import (
	"archive/tar"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// skipInJDK are parts of a JDK that running an app never needs; leaving
// them out makes the image smaller (jmods alone is ~70 MB).
var skipInJDK = map[string]bool{"jmods": true, "src.zip": true, "man": true, "demo": true, "docs": true}

// mergedUsrLinks are the top-level links of a merged-/usr system; the
// image has the same ones when the host does, so paths ldd and the JDK
// record (/lib64/ld-linux-x86-64.so.2) resolve in it.
var mergedUsrLinks = []string{"/bin", "/sbin", "/lib", "/lib64"}

const passwd = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
const group = "root:x:0:\nnogroup:x:65534:\n"

// rootfs writes the tar of a root filesystem holding the JDK at home and
// the libraries libs.
type rootfs struct {
	tw   *tar.Writer
	dirs map[string]bool // every path written (directories, links, files)
	when time.Time
}

// WriteRootfs writes the root filesystem's tar to w, the JDK at its host
// path.
func WriteRootfs(w io.Writer, home string, libs []string) error {
	return writeRootfs(w, home, libs, Layout{})
}

// writeRootfs writes the root filesystem's tar to w, the JDK and extra
// links placed as l says.
func writeRootfs(w io.Writer, home string, libs []string, l Layout) error {
	r := &rootfs{tw: tar.NewWriter(w), dirs: map[string]bool{"/": true}, when: time.Unix(0, 0)}
	for _, l := range mergedUsrLinks {
		if t, err := os.Readlink(l); err == nil {
			if err := r.link(l, t); err != nil {
				return err
			}
			r.dirs[l] = true
		}
	}
	for _, d := range []struct {
		path string
		mode int64
	}{{"/tmp", 0o1777}, {"/root", 0o700}} {
		if err := r.dir(d.path, d.mode); err != nil {
			return err
		}
	}
	if err := r.data("/etc/passwd", passwd); err != nil {
		return err
	}
	if err := r.data("/etc/group", group); err != nil {
		return err
	}
	for _, l := range libs {
		if err := r.library(l); err != nil {
			return err
		}
	}
	if err := r.jdk(home, l.JDKAt); err != nil {
		return err
	}
	for _, p := range sortedKeys(l.Links) {
		if err := r.link(p, l.Links[p]); err != nil {
			return err
		}
	}
	return r.tw.Close()
}

// library stores a library under its host path with the directory part
// resolved (so no entry goes through a link), and its target if it is a
// link.
func (r *rootfs) library(p string) error {
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return fmt.Errorf("cannot resolve %s: %w", p, err)
	}
	p = filepath.Join(dir, filepath.Base(p))
	if t, err := os.Readlink(p); err == nil {
		if err := r.link(p, t); err != nil {
			return err
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return fmt.Errorf("cannot resolve %s: %w", p, err)
		}
		return r.library(real)
	}
	return r.file(p, p)
}

// jdk stores the JDK's tree, at its own path or at at; links that stay
// inside it stay links, links that leave it are stored as the file they
// point at, dangling ones are left out.
func (r *rootfs) jdk(home, at string) error {
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return fmt.Errorf("no JDK at %s: %w", home, err)
	}
	return filepath.WalkDir(real, func(host string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		p := host // the path in the image
		if at != "" {
			p = filepath.Join(at, strings.TrimPrefix(host, real))
		}
		if skipInJDK[d.Name()] && filepath.Dir(host) == real || filepath.Base(filepath.Dir(host)) == "lib" && d.Name() == "src.zip" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			return r.dir(p, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(host)
			to, err := filepath.EvalSymlinks(host)
			if err != nil {
				return nil // dangling: nothing to store
			}
			if strings.HasPrefix(to, real+"/") && !filepath.IsAbs(t) {
				return r.link(p, t)
			}
			if st, err := os.Stat(to); err == nil && st.Mode().IsRegular() {
				return r.file(p, to)
			}
			return nil
		case d.Type().IsRegular():
			return r.file(p, host)
		}
		return nil
	})
}
