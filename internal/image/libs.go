package image

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// extraLibs are loaded with dlopen, which ldd cannot see: glibc opens
// libgcc_s when a thread exits or is cancelled.
var extraLibs = []string{"libgcc_s.so.1"}

// libraryDirs is where extraLibs are looked up.
var libraryDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"}

// Libraries lists the host libraries (as ldd names them) that the ELF
// files under home link against, outside home itself, with the loader.
func Libraries(ctx context.Context, home string) ([]string, error) {
	set := map[string]bool{}
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !isELF(p) {
			return err
		}
		out, _ := exec.CommandContext(ctx, "ldd", p).Output() // "not a dynamic executable" fails
		for _, lib := range parseLdd(out) {
			if !strings.HasPrefix(lib, home+"/") {
				set[lib] = true
			}
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	for _, name := range extraLibs {
		for _, d := range libraryDirs {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				set[filepath.Join(d, name)] = true
				break
			}
		}
	}
	libs := make([]string, 0, len(set))
	for l := range set {
		libs = append(libs, l)
	}
	sort.Strings(libs)
	return libs, nil
}

// parseLdd takes the absolute paths from ldd's output: "libz.so.1 =>
// /lib/.../libz.so.1 (0x...)" and the loader's "/lib64/ld-linux... (0x...)".
func parseLdd(out []byte) []string {
	var libs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if _, after, ok := strings.Cut(line, "=> "); ok {
			line = after
		}
		f := strings.Fields(line)
		if len(f) > 0 && strings.HasPrefix(f[0], "/") {
			libs = append(libs, f[0])
		}
	}
	return libs
}

func isELF(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 4)
	n, _ := f.Read(b)
	return n == 4 && string(b) == "\x7fELF"
}
