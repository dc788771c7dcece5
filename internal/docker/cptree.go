package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path"
	"strings"
)

// cpTree is a created container's tree asked one path at a time with the
// engine's cp, which writes a tar of the path (a link as a link, its
// parents resolved in the container) to stdout: the first header is the
// path's entry, and the rest is never read, so a directory costs no more
// than a file. Entries are kept, and so is the first error that is not a
// missing path (the engine's), for the lookup's message.
type cpTree struct {
	ctx  context.Context
	e    Engine
	id   string
	seen map[string]*fsEntry // nil: not in the image
	err  error
}

func newCPTree(ctx context.Context, e Engine, id string) *cpTree {
	return &cpTree{ctx: ctx, e: e, id: id, seen: map[string]*fsEntry{"/": {dir: true}}}
}

func (c *cpTree) lstat(p string) (fsEntry, bool) {
	if e, ok := c.seen[p]; ok {
		if e == nil {
			return fsEntry{}, false
		}
		return *e, true
	}
	var found *fsEntry
	c.cp(p, func(tr *tar.Reader) {
		h, err := tr.Next()
		if err != nil {
			return
		}
		if _, e, ok := headerEntry("/", h); ok {
			found = &e
		}
	})
	c.seen[p] = found
	return c.lstat(p)
}

// each streams the tree below the pattern's literal directories (real
// ones: a link's target is not the pattern's), keeping every entry it
// passes, and stops at the first path fn takes.
func (c *cpTree) each(pattern string, fn func(string) bool) {
	parts := strings.Split(strings.Trim(path.Clean("/"+pattern), "/"), "/")
	base := "/"
	for _, part := range parts {
		if strings.ContainsAny(part, `*?[\`) {
			break
		}
		base = path.Join(base, part)
		if e, ok := c.lstat(base); !ok || !e.dir && base != path.Clean("/"+pattern) {
			return
		}
	}
	if base == "/" {
		return // a pattern with no literal directory would stream the whole image
	}
	c.cp(base, func(tr *tar.Reader) {
		for {
			h, err := tr.Next()
			if err != nil {
				return
			}
			// The tar's names start with base's own name.
			p, e, ok := headerEntry(path.Dir(base), h)
			if !ok {
				continue
			}
			if _, seen := c.seen[p]; !seen {
				c.seen[p] = &e
			}
			if m, _ := path.Match(pattern, p); m && fn(p) {
				return
			}
		}
	})
}

// cp runs `cp ID:P -` and gives read its tar; once read returns, the
// command is ended, the rest of its output unread.
func (c *cpTree) cp(p string, read func(*tar.Reader)) {
	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.e.Bin, "cp", c.id+":"+p, "-")
	cmd.Dir = c.e.Dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		c.fail(fmt.Errorf("%s cp: %w", c.e.Bin, err))
		return
	}
	n := &countReader{r: out}
	read(tar.NewReader(n))
	if n.n > 0 {
		// What read needed came; the engine's client is killed rather than
		// left to block on a pipe nobody reads.
		cancel()
		_ = cmd.Wait()
		return
	}
	err = cmd.Wait()
	if msg := strings.TrimSpace(errb.String()); err != nil && !missing(msg) {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		c.fail(fmt.Errorf("%s cp %s: %w: %s", c.e.Bin, p, err, lastLine(msg)))
	}
}

func (c *cpTree) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// missing is an engine's word for a path the container lacks.
func missing(msg string) bool {
	for _, s := range []string{"No such", "no such", "Could not find", "could not be found"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	if errors.Is(err, io.ErrClosedPipe) {
		err = io.EOF
	}
	return n, err
}
