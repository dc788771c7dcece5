// pagehog is a test program (internal/sandbox stall_real_test.go) that
// fills its memory cgroup with anonymous memory up to a few MiB under the
// limit, then keeps needing file pages in the room left:
//
//	pagehog thrash ROOM_MIB FILE SECONDS   fault random pages of FILE, mapped
//	pagehog churn  ROOM_MIB FILE SECONDS   read() FILE start to end, again and again
//
// With no swap the anonymous memory cannot leave, so a FILE larger than the
// room cycles through it. thrash is how a JVM starves at a tight limit: its
// code, CDS archive and mapped jars are evicted and faulted back for ever,
// each fault a wait on the disk, while reclaim always frees something and
// the OOM killer never acts. churn is a healthy app streaming files through
// its page cache: as many pages evicted and read back, but no faults on
// mapped pages. Both stop after SECONDS and exit 0; each prints "filled
// BYTES" once and "pass N" after each pass over FILE.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: pagehog thrash|churn ROOM_MIB FILE SECONDS")
		os.Exit(2)
	}
	mode, file := os.Args[1], os.Args[3]
	room, err1 := strconv.ParseInt(os.Args[2], 10, 64)
	secs, err2 := strconv.Atoi(os.Args[4])
	if err1 != nil || err2 != nil || (mode != "thrash" && mode != "churn") {
		fmt.Fprintln(os.Stderr, "pagehog: bad arguments", os.Args[1:])
		os.Exit(2)
	}
	if err := run(mode, room<<20, file, time.Duration(secs)*time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "pagehog:", err)
		os.Exit(1)
	}
}

func run(mode string, room int64, file string, d time.Duration) error {
	dir, err := ownMemoryDir()
	if err != nil {
		return err
	}
	limit, usage, err := limitUsage(dir)
	if err != nil {
		return err
	}
	anon := limit - usage - room
	if anon <= 0 {
		return fmt.Errorf("limit %d, usage %d: no room for %d of anonymous memory", limit, usage, anon)
	}
	anon &^= 4095
	mem, err := unix.Mmap(-1, 0, int(anon), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return err
	}
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 1
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	// Its pages may sit in the page cache, charged to whoever wrote them;
	// dropped, every page this program needs is read into its own group.
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return err
	}
	fmt.Println("filled", anon)
	end := time.Now().Add(d)
	if mode == "churn" {
		return churn(f, end)
	}
	return thrash(f, end)
}

// thrash faults the file's pages in a random order, one page each (no
// readahead), as a program's code and mapped data are used.
func thrash(f *os.File, end time.Time) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	if err := unix.Madvise(m, unix.MADV_RANDOM); err != nil {
		return err
	}
	pages := uint32(len(m) / 4096)
	x, sum := uint32(1), byte(0)
	for pass := 1; time.Now().Before(end); pass++ {
		for j := uint32(0); j < pages; j++ {
			x = x*1664525 + 1013904223 // a full-period LCG: every page once a pass
			sum += m[int(x%pages)*4096]
		}
		fmt.Println("pass", pass, sum) // sum: the reads are not optimised away
	}
	return nil
}

// churn reads the file through read(), as a server streams files.
func churn(f *os.File, end time.Time) error {
	buf := make([]byte, 64<<10)
	for pass := 1; time.Now().Before(end); pass++ {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf); err != nil {
			return err
		}
		fmt.Println("pass", pass)
	}
	return nil
}

// ownMemoryDir is this process's memory cgroup directory, v1 or v2.
func ownMemoryDir() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	var v2 string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		p := strings.SplitN(line, ":", 3)
		if len(p) != 3 {
			continue
		}
		switch {
		case p[1] == "memory":
			return filepath.Join("/sys/fs/cgroup/memory", p[2]), nil
		case p[0] == "0" && p[1] == "":
			v2 = filepath.Join("/sys/fs/cgroup", p[2])
		}
	}
	if v2 == "" {
		return "", fmt.Errorf("no memory cgroup in /proc/self/cgroup")
	}
	return v2, nil
}

func limitUsage(dir string) (limit, usage int64, err error) {
	lf, uf := "memory.limit_in_bytes", "memory.usage_in_bytes"
	if _, err := os.Stat(filepath.Join(dir, lf)); err != nil {
		lf, uf = "memory.max", "memory.current"
	}
	if limit, err = readInt(filepath.Join(dir, lf)); err != nil {
		return 0, 0, err
	}
	usage, err = readInt(filepath.Join(dir, uf))
	return limit, usage, err
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w (a group without a memory limit?)", path, err)
	}
	return n, nil
}
