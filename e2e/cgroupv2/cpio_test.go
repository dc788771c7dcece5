package cgroupv2

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
)

// cpioWriter writes a "newc" cpio archive (magic 070701), the one format
// the kernel unpacks an initramfs from (Documentation/driver-api/
// early-userspace/buffer-format.rst). Every entry has a header of 13
// eight-digit hex fields, its NUL-ended name padded to 4 bytes, then its
// data padded to 4 bytes; a TRAILER!!! entry ends the archive.
//
// It streams host files into the archive, so a 150 MiB image needs no
// staging copy. Parents must come before their children: the kernel creates
// each entry with mkdir/open, so dirs() adds missing parents first.
type cpioWriter struct {
	w    *bufio.Writer
	off  int64
	ino  uint32
	made map[string]bool
}

func newCpioWriter(w io.Writer) *cpioWriter {
	return &cpioWriter{w: bufio.NewWriterSize(w, 1<<20), made: map[string]bool{"": true, ".": true}}
}

const (
	cpioDir     = 0o040000
	cpioRegular = 0o100000
	cpioSymlink = 0o120000
)

// header writes one entry's header and name; size is its data length.
func (c *cpioWriter) header(name string, mode uint32, size int64) error {
	c.ino++
	nlink := 1
	if mode&0o170000 == cpioDir {
		nlink = 2
	}
	// ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check
	h := fmt.Sprintf("070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
		c.ino, mode, 0, 0, nlink, 0, size, 0, 0, 0, 0, len(name)+1, 0)
	if _, err := c.w.WriteString(h + name + "\x00"); err != nil {
		return err
	}
	c.off += int64(len(h) + len(name) + 1)
	return c.pad()
}

// pad writes NULs up to the next multiple of 4.
func (c *cpioWriter) pad() error {
	n := (4 - c.off%4) % 4
	if _, err := c.w.Write(make([]byte, n)); err != nil {
		return err
	}
	c.off += n
	return nil
}

// dirs adds dir and its missing parents (names are relative, "a/b").
func (c *cpioWriter) dirs(dir string) error {
	if c.made[dir] {
		return nil
	}
	if err := c.dirs(path.Dir(dir)); err != nil {
		return err
	}
	c.made[dir] = true
	return c.header(dir, cpioDir|0o755, 0)
}

// Dir adds an empty directory.
func (c *cpioWriter) Dir(name string, perm os.FileMode) error {
	name = cpioName(name)
	if c.made[name] {
		return nil
	}
	if err := c.dirs(path.Dir(name)); err != nil {
		return err
	}
	c.made[name] = true
	return c.header(name, cpioDir|uint32(perm.Perm()), 0)
}

// File adds a regular file of size bytes read from r.
func (c *cpioWriter) File(name string, perm os.FileMode, size int64, r io.Reader) error {
	name = cpioName(name)
	if err := c.dirs(path.Dir(name)); err != nil {
		return err
	}
	if err := c.header(name, cpioRegular|uint32(perm.Perm()), size); err != nil {
		return err
	}
	n, err := io.CopyN(c.w, r, size)
	c.off += n
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return c.pad()
}

// Symlink adds name pointing at target.
func (c *cpioWriter) Symlink(name, target string) error {
	name = cpioName(name)
	if err := c.dirs(path.Dir(name)); err != nil {
		return err
	}
	if err := c.header(name, cpioSymlink|0o777, int64(len(target))); err != nil {
		return err
	}
	if _, err := c.w.WriteString(target); err != nil {
		return err
	}
	c.off += int64(len(target))
	return c.pad()
}

// Close writes the trailer and flushes; the underlying writer stays open.
func (c *cpioWriter) Close() error {
	if err := c.header("TRAILER!!!", 0, 0); err != nil {
		return err
	}
	return c.w.Flush()
}

// cpioName makes a guest path ("/bin/sh") an archive name ("bin/sh").
func cpioName(p string) string {
	p = path.Clean("/" + p)
	return p[1:]
}
