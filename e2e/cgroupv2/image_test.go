package cgroupv2

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// image is the guest's initramfs before it is written: guest path → what
// goes there. Host files are read only when the archive is written.
type image struct {
	entries map[string]imageEntry
}

type imageEntry struct {
	host string // a host file to copy (symlinks followed)
	data []byte // or these bytes
	link string // or a symlink to this
	dir  bool   // or an empty directory
	perm os.FileMode
}

func newImage() *image { return &image{entries: map[string]imageEntry{}} }

// hostFile puts the host file's content (symlinks followed) at guest.
func (im *image) hostFile(guest, host string) error {
	st, err := os.Stat(host)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", host)
	}
	im.entries[guest] = imageEntry{host: host, perm: st.Mode().Perm()}
	return nil
}

// data puts b at guest.
func (im *image) data(guest string, perm os.FileMode, b []byte) {
	im.entries[guest] = imageEntry{data: b, perm: perm}
}

func (im *image) dir(guest string) { im.entries[guest] = imageEntry{dir: true, perm: 0o755} }

// hostTree copies the tree at host to guest, keeping its symlinks, except
// the paths (relative to host) that skip refuses.
func (im *image) hostTree(guest, host string, skip func(rel string) bool) error {
	return filepath.WalkDir(host, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(host, p)
		if rel != "." && skip != nil && skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		g := filepath.Join(guest, rel)
		switch {
		case d.IsDir():
			im.dir(g)
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			im.entries[g] = imageEntry{link: t}
		default:
			return im.hostFile(g, p)
		}
		return nil
	})
}

// write writes the archive to path, entries in path order (parents first).
func (im *image) write(path string) (size int64, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	names := make([]string, 0, len(im.entries))
	for n := range im.entries {
		names = append(names, n)
	}
	sort.Strings(names)
	c := newCpioWriter(f)
	for _, n := range names {
		if err := im.writeEntry(c, n, im.entries[n]); err != nil {
			return 0, err
		}
	}
	if err := c.Close(); err != nil {
		return 0, err
	}
	return c.off, nil
}

func (im *image) writeEntry(c *cpioWriter, name string, e imageEntry) error {
	switch {
	case e.dir:
		return c.Dir(name, e.perm)
	case e.link != "":
		return c.Symlink(name, e.link)
	case e.host != "":
		f, err := os.Open(e.host)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		return c.File(name, e.perm, st.Size(), f)
	default:
		return c.File(name, e.perm, int64(len(e.data)), bytes.NewReader(e.data))
	}
}

// sharedLibs lists the host libraries the dynamic ELF files among bins load
// (ldd's answer: the loader and every library it found), so the guest can
// run the host's JDK and util-linux without a distribution of its own.
// Libraries a binary finds by its own rpath (the JDK's libjvm.so) show as
// "not found" for the others and are packed with the JDK itself.
func sharedLibs(bins []string) ([]string, error) {
	seen := map[string]bool{}
	for _, b := range bins {
		out, err := exec.Command("ldd", b).Output()
		if err != nil {
			// ldd fails for static binaries and files that are not ELF.
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) >= 3 && f[1] == "=>" && strings.HasPrefix(f[2], "/"):
				seen[f[2]] = true
			case len(f) >= 1 && strings.HasPrefix(f[0], "/"):
				seen[f[0]] = true
			}
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("ldd found no libraries for %s", strings.Join(bins, " "))
	}
	libs := make([]string, 0, len(seen))
	for l := range seen {
		libs = append(libs, l)
	}
	sort.Strings(libs)
	return libs, nil
}
