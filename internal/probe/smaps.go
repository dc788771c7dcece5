package probe

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// smapsEvery reads /proc/PID/smaps on every Nth sample only: the kernel
// walks every resident page for it, like smaps_rollup, and formats every
// mapping (a JVM has hundreds). At the usual 250 ms that is every 2 s.
const smapsEvery = 8

// smapsResident is what one pass over /proc/PID/smaps gives.
type smapsResident struct {
	Archive int64 // Rss of the CDS archive / AOT cache mappings
	// ArchiveAnon is the part of Archive the JVM wrote to (copy-on-write
	// pages of its private mappings): it is in RssAnon too.
	ArchiveAnon int64
	Mapped      int64 // Rss of other file mappings that are not the JVM's own code
}

// readSmaps sums the resident size of the archive's mappings and of the
// remaining data files (mapped NIO buffers) of pid under procfs root.
func readSmaps(root string, pid int) (smapsResident, error) {
	if root == "" {
		root = "/proc"
	}
	dir := filepath.Join(root, strconv.Itoa(pid))
	exe, _ := os.Readlink(filepath.Join(dir, "exe"))
	b, err := os.ReadFile(filepath.Join(dir, "smaps"))
	if err != nil {
		return smapsResident{}, err
	}
	return parseSmaps(b, exe, archiveFiles(root, pid)), nil
}

// parseSmaps reads smaps text; exe is the process's executable, whose own
// mapping is code, not data; archives are archive files named in options.
func parseSmaps(b []byte, exe string, archives map[string]bool) smapsResident {
	var out smapsResident
	var into *int64 // where the current mapping's Rss goes, nil = nowhere
	archive := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok {
			if into != nil {
				*into += kbField(rest)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Anonymous:"); ok {
			if archive {
				out.ArchiveAnon += kbField(rest)
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) < 5 || !strings.Contains(f[0], "-") || strings.HasSuffix(f[0], ":") {
			continue // another "Key: value" line of the current mapping
		}
		into, archive = nil, false
		if len(f) < 6 {
			continue // anonymous
		}
		switch path := strings.Join(f[5:], " "); mappingKind(path, exe, archives) {
		case "archive":
			into, archive = &out.Archive, true
		case "data":
			into = &out.Mapped
		}
	}
	return out
}

// mappingKind sorts a mapped path: "archive" for a CDS archive (*.jsa), an
// AOT cache (*.aot) or a file the options name as either, "data" for a file
// the app mapped, "" for the JVM's own images (the executable, shared
// libraries, the modules image, jars), pseudo files and devices.
func mappingKind(path, exe string, archives map[string]bool) string {
	path = strings.TrimSuffix(path, " (deleted)")
	switch {
	case strings.HasSuffix(path, ".jsa"), strings.HasSuffix(path, ".aot"), archives[path]:
		return "archive"
	case !strings.HasPrefix(path, "/"), path == exe,
		strings.HasPrefix(path, "/memfd:"), strings.HasPrefix(path, "/dev/"),
		strings.HasPrefix(path, "/usr/lib/locale/"), strings.Contains(path, "/hsperfdata_"),
		strings.HasSuffix(path, ".so"), strings.Contains(path, ".so."),
		strings.HasSuffix(path, "/lib/modules"), strings.HasSuffix(path, ".jar"):
		return ""
	}
	return "data"
}

// kbField reads "  1234 kB".
func kbField(s string) int64 {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(f[0], 10, 64)
	return n << 10
}
