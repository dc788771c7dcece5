//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fakeKernel plays cgroup v2 on a fixture tree: a new directory gets the
// interface files of the controllers its parent enables; subtree_control
// refuses a controller the directory is not offered (ENOENT) and, below
// the root, any while the directory holds a process (EBUSY), and hands
// what it enables to the children's cgroup.controllers; cgroup.procs moves
// a pid out of wherever it was, and refuses a directory that delegates
// (EBUSY). readOnly and deny play a read-only mount and an unwritable
// directory.
type fakeKernel struct {
	mount    string
	swap     bool
	readOnly bool
	deny     map[string]bool
}

func (k *fakeKernel) refuse(dir string) error {
	if k.readOnly {
		return syscall.EROFS
	}
	if k.deny[dir] {
		return syscall.EACCES
	}
	return nil
}

func (k *fakeKernel) isRoot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "cgroup.type"))
	return dir == k.mount && os.IsNotExist(err)
}

func (k *fakeKernel) Mkdir(dir string) error {
	if err := k.refuse(filepath.Dir(dir)); err != nil {
		return &os.PathError{Op: "mkdir", Path: dir, Err: err}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	if err := grpV2Kernel(k.swap)(dir); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "cgroup.type"), []byte("domain\n"), 0o644)
}

func (k *fakeKernel) Write(dir, file, value string) error {
	wrap := func(err error) error {
		return &os.PathError{Op: "write", Path: filepath.Join(dir, file), Err: err}
	}
	if err := k.refuse(dir); err != nil {
		return wrap(err)
	}
	switch file {
	case "cgroup.subtree_control":
		d := readCgDir(dir, k.mount)
		on := map[string]bool{}
		for _, c := range d.Enables {
			on[c] = true
		}
		for _, f := range strings.Fields(value) {
			c := strings.TrimLeft(f, "+-")
			if !contains(d.Offers, c) {
				return wrap(syscall.ENOENT)
			}
			on[c] = f[0] == '+'
		}
		if d.Procs > 0 && !k.isRoot(dir) {
			return wrap(syscall.EBUSY)
		}
		var list []string
		for c, v := range on {
			if v {
				list = append(list, c)
			}
		}
		sort.Strings(list)
		s := strings.Join(list, " ")
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.IsDir() {
				_ = os.WriteFile(filepath.Join(dir, e.Name(), "cgroup.controllers"), []byte(s+"\n"), 0o644)
			}
		}
		return os.WriteFile(filepath.Join(dir, file), []byte(s+"\n"), 0o644)
	case "cgroup.procs":
		if d := readCgDir(dir, k.mount); len(d.Enables) > 0 && !k.isRoot(dir) {
			return wrap(syscall.EBUSY)
		}
		k.takeOut(value)
		old, _ := grpReadString(dir, file)
		return os.WriteFile(filepath.Join(dir, file), []byte(strings.TrimSpace(old+"\n"+value)+"\n"), 0o644)
	}
	return grpWrite(dir, file, value)
}

// takeOut removes pid from every cgroup.procs of the tree.
func (k *fakeKernel) takeOut(pid string) {
	_ = filepath.Walk(k.mount, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.Name() != "cgroup.procs" {
			return nil
		}
		b, _ := os.ReadFile(p)
		var keep []string
		for _, f := range strings.Fields(string(b)) {
			if f != pid {
				keep = append(keep, f)
			}
		}
		return os.WriteFile(p, []byte(strings.Join(keep, "\n")), 0o644)
	})
}

func (k *fakeKernel) Writable(path string) error { return k.refuse(path) }

func (k *fakeKernel) Rmdir(dir string) error {
	if err := k.refuse(filepath.Dir(dir)); err != nil {
		return err
	}
	if pids, _ := grpReadProcs(dir); len(pids) > 0 {
		return syscall.EBUSY
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return syscall.ENOENT
	}
	for _, e := range ents {
		if e.IsDir() {
			return syscall.EBUSY
		}
	}
	grpRemoveFixtureFiles(dir)
	return syscall.Rmdir(dir)
}

// popKernel is a plain fixture filesystem whose new directories a populate
// function fills (the v1 fixtures).
type popKernel struct{ populate func(dir string) error }

func (k popKernel) Mkdir(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	return k.populate(dir)
}
func (popKernel) Write(dir, file, value string) error { return grpWrite(dir, file, value) }
func (popKernel) Writable(string) error               { return nil }
func (popKernel) Rmdir(dir string) error {
	grpRemoveFixtureFiles(dir)
	return syscall.Rmdir(dir)
}

func grpRemoveFixtureFiles(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.IsDir() {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// snapshot lists every directory and file (with content) of a tree, to
// prove that a refusal created and changed nothing.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		b.WriteString(strings.TrimPrefix(p, root))
		if !info.IsDir() {
			c, _ := os.ReadFile(p)
			b.WriteString("=" + strconv.Quote(string(c)))
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}
