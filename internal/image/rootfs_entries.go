package image

import (
	"archive/tar"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// name is a tar entry's name for an absolute path.
func name(p string) string { return strings.TrimPrefix(filepath.Clean(p), "/") }

// parents writes the directories above p that are not written yet.
func (r *rootfs) parents(p string) error {
	d := filepath.Dir(filepath.Clean(p))
	if r.dirs[d] {
		return nil
	}
	return r.dir(d, 0o755)
}

func (r *rootfs) dir(p string, mode int64) error {
	if r.dirs[p] {
		return nil
	}
	if err := r.parents(p); err != nil {
		return err
	}
	r.dirs[p] = true
	return r.tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name(p) + "/", Mode: mode, ModTime: r.when})
}

func (r *rootfs) link(p, target string) error {
	if r.dirs[p] {
		return nil
	}
	r.dirs[p] = true
	if err := r.parents(p); err != nil {
		return err
	}
	return r.tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: name(p), Linkname: target, Mode: 0o777, ModTime: r.when})
}

func (r *rootfs) data(p, text string) error {
	if err := r.parents(p); err != nil {
		return err
	}
	if err := r.tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name(p), Mode: 0o644, Size: int64(len(text)), ModTime: r.when}); err != nil {
		return err
	}
	_, err := io.WriteString(r.tw, text)
	return err
}

// file stores the host file src as p, with src's mode.
func (r *rootfs) file(p, src string) error {
	if r.dirs[p] {
		return nil // two libraries' links led to the same file
	}
	r.dirs[p] = true
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("cannot read %s for the image: %w", src, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := r.parents(p); err != nil {
		return err
	}
	h := &tar.Header{Typeflag: tar.TypeReg, Name: name(p), Mode: int64(st.Mode().Perm()), Size: st.Size(), ModTime: r.when}
	if err := r.tw.WriteHeader(h); err != nil {
		return err
	}
	if _, err := io.Copy(r.tw, f); err != nil {
		return fmt.Errorf("cannot copy %s into the image: %w", src, err)
	}
	return nil
}
