package detect

import (
	"archive/zip"
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"path"
	"strings"
)

// jar is an opened jar, or a directory holding one unpacked: its manifest,
// its entries, and the names of the jars it refers to (its Class-Path, or
// Quarkus's lib/ tree beside it).
type jar struct {
	name      string
	files     fs.FS             // the jar's entries (a zip.Reader, or the directory)
	list      []entry           // every regular file in it
	file      fs.File           // the open zip, closed with the jar; nil for a directory
	manifest  map[string]string // keys lower-cased
	mainClass string
	entries   map[string]bool
	// libs are the base names of the dependency jars found: nested ones
	// (Spring Boot's BOOT-INF/lib), the Class-Path's, and Quarkus's lib/.
	libs    []string
	scanned *code // the jar's own classes, read once when needed
	// fsys and dir are where the jar lies, for the files beside it
	// (Quarkus's app/ holds the application's own jar and configuration).
	fsys fs.FS
	dir  string
}

// maxManifest bounds what is read of a manifest.
const maxManifest = 1 << 20

func openJar(fsys fs.FS, name string) (*jar, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, inputErr("%s does not exist: give the application's jar", name)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, inputErr("%s is a directory: give the application's jar (for Quarkus, quarkus-app/quarkus-run.jar)", path.Base(name))
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		// An fs.FS whose files cannot seek: read the jar whole.
		b, err := io.ReadAll(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		ra = bytes.NewReader(b)
	}
	zr, err := zip.NewReader(ra, st.Size())
	if err != nil {
		f.Close()
		return nil, inputErr("%s is not a jar: it cannot be read as a zip archive (%v)", path.Base(name), err)
	}
	j := &jar{name: name, files: zr, file: f}
	for _, e := range zr.File {
		j.list = append(j.list, entry{e.Name, int64(e.UncompressedSize64)})
	}
	if err := j.index(fsys, path.Dir(name)); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// entry is one file of a jar.
type entry struct {
	name string
	size int64
}

// openDir reads a jar unpacked into dir inside fsys (an image's
// /workspace, where a buildpack unpacks a Spring Boot jar).
func openDir(fsys fs.FS, dir string) (*jar, error) {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, err
	}
	j := &jar{name: dir, files: sub}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			j.list = append(j.list, entry{p, info.Size()})
		}
		return nil
	})
	if err != nil {
		return nil, inputErr("%s cannot be read: %v", dir, err)
	}
	if err := j.index(fsys, dir); err != nil {
		return nil, err
	}
	return j, nil
}

// index reads what detection asks of every jar: its entries, its nested
// libraries, its manifest and the libraries it names; dir is where its
// Class-Path and Quarkus's lib/ are looked up in fsys.
func (j *jar) index(fsys fs.FS, dir string) error {
	j.fsys, j.dir = fsys, dir
	j.entries = map[string]bool{}
	for _, e := range j.list {
		j.entries[e.name] = true
		if strings.HasPrefix(e.name, "BOOT-INF/lib/") || strings.HasPrefix(e.name, "WEB-INF/lib/") {
			j.libs = append(j.libs, path.Base(e.name))
		}
	}
	if err := j.readManifest(); err != nil {
		return inputErr("%s is not a jar: its manifest cannot be read (%v)", path.Base(j.name), err)
	}
	j.mainClass = j.manifest["main-class"]
	for _, cp := range strings.Fields(j.manifest["class-path"]) {
		if strings.HasSuffix(cp, ".jar") {
			j.libs = append(j.libs, path.Base(cp))
		}
	}
	// Quarkus's fast-jar: quarkus-run.jar names no Class-Path; its
	// dependencies are in lib/boot and lib/main beside it.
	for _, sub := range []string{"lib/boot", "lib/main"} {
		if des, err := fs.ReadDir(fsys, path.Join(dir, sub)); err == nil {
			for _, de := range des {
				j.libs = append(j.libs, de.Name())
			}
		}
	}
	return nil
}

func (j *jar) close() {
	if j.file != nil {
		j.file.Close()
	}
}

// readManifest reads the jar's META-INF/MANIFEST.MF (ReadManifest).
func (j *jar) readManifest() error {
	f, err := j.files.Open("META-INF/MANIFEST.MF")
	if err != nil {
		j.manifest = map[string]string{}
		return nil // a zip without a manifest: no Main-Class, said by the caller
	}
	defer f.Close()
	j.manifest, err = ReadManifest(f)
	return err
}

// ReadManifest parses a jar manifest: "Key: value" lines, a line starting
// with one space continuing the one before (72-byte wrapping); keys
// lower-cased, at most maxManifest bytes read.
func ReadManifest(r io.Reader) (map[string]string, error) {
	m := map[string]string{}
	sc := bufio.NewScanner(io.LimitReader(r, maxManifest))
	sc.Buffer(make([]byte, 64<<10), maxManifest)
	last := ""
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(line, " ") && last != "" {
			m[last] += line[1:]
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			last = ""
			continue
		}
		last = strings.ToLower(strings.TrimSpace(k))
		m[last] = strings.TrimSpace(v)
	}
	return m, sc.Err()
}

// hasPrefix says whether some entry's name starts with p.
func (j *jar) hasPrefix(p string) bool {
	if j.entries[p] {
		return true
	}
	for n := range j.entries {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// lib returns the first dependency jar whose base name starts with one
// of the prefixes (e.g. "spring-boot-actuator-"), "" if none.
func (j *jar) lib(prefixes ...string) string {
	for _, l := range j.libs {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				return l
			}
		}
	}
	return ""
}

// libVersion is the version in a dependency jar's name: "3.33.2" from
// "io.quarkus.quarkus-core-3.33.2.jar" with the prefix "io.quarkus.quarkus-core-".
func libVersion(lib, prefix string) string {
	v := strings.TrimSuffix(strings.TrimPrefix(lib, prefix), ".jar")
	if v == lib || v == "" || v[0] < '0' || v[0] > '9' {
		return ""
	}
	return v
}
