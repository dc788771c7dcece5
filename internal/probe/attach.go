//go:build linux

package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Jcmd runs a diagnostic command in the JVM pid through HotSpot's attach
// socket, as the jcmd tool does, without starting a JVM for the client:
// a jcmd process costs about half a second of CPU, this a few milliseconds,
// so NMT can be read every few seconds during a trial.
//
// The protocol (JDK 6 to 25): the client creates .attach_pid<PID> in the
// JVM's working directory and sends SIGQUIT; the JVM then listens on
// /tmp/.java_pid<PID>. A request is "1", the command and three arguments,
// each NUL-terminated; the answer is a status line ("0" = done) and the
// command's output. The JVM admits only its own user or root.
//
// The caller must know the JVM is past start-up (its hsperfdata is
// there): before HotSpot installs its handlers SIGQUIT ends the process.
func Jcmd(ctx context.Context, root string, pid int, command string) (string, error) {
	if root == "" {
		root = "/proc"
	}
	conn, err := attach(ctx, root, pid)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if d, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(d)
	}
	req := "1\x00jcmd\x00" + command + "\x00\x00\x00"
	if _, err := io.WriteString(conn, req); err != nil {
		return "", fmt.Errorf("attach to %d: %w", pid, err)
	}
	out, err := io.ReadAll(conn)
	if err != nil {
		return "", fmt.Errorf("attach to %d: reading %q: %w", pid, command, err)
	}
	status, body, _ := strings.Cut(string(out), "\n")
	if strings.TrimSpace(status) != "0" {
		return "", fmt.Errorf("jcmd %d %s failed (status %s): %s", pid, command, strings.TrimSpace(status), lastLine([]byte(body)))
	}
	return body, nil
}

// attach connects to the JVM's attach socket, asking it to open one if it
// has none yet.
func attach(ctx context.Context, root string, pid int) (net.Conn, error) {
	sock := filepath.Join(root, strconv.Itoa(pid), "root/tmp", ".java_pid"+strconv.Itoa(pid))
	if c, err := dialUnix(ctx, sock); err == nil {
		return c, nil
	}
	name := ".attach_pid" + strconv.Itoa(pid)
	remove, err := createTrigger(filepath.Join(root, strconv.Itoa(pid), "cwd"), name)
	if err != nil {
		if remove, err = createTrigger(filepath.Join(root, strconv.Itoa(pid), "root/tmp"), name); err != nil {
			return nil, fmt.Errorf("attach to %d: %w", pid, err)
		}
	}
	defer remove()
	// As the JDK's own attach does: SIGQUIT only to a process that catches
	// it, since its default action ends the process.
	if !catchesSIGQUIT(root, pid) {
		return nil, fmt.Errorf("attach to %d: the process does not catch SIGQUIT (not a HotSpot JVM, or not started yet)", pid)
	}
	if err := syscall.Kill(pid, syscall.SIGQUIT); err != nil {
		return nil, fmt.Errorf("attach to %d: %w", pid, err)
	}
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		c, err := dialUnix(ctx, sock)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("attach to %d: the JVM opened no attach socket (-XX:+DisableAttachMechanism?): %w", pid, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// createTrigger creates the empty file name in dir (a /proc/PID path) and
// returns what removes it. It holds dir open, so the removal still finds
// the file once the process is gone and /proc/PID with it: removing by the
// /proc path left .attach_pidN files in the directories of JVMs that
// exited while being attached.
//
// The directory may be anyone's (the JVM's working directory, its /tmp),
// and jvmfit is root: the file is created only if nothing is at its name
// (O_EXCL, O_NOFOLLOW), so a planted link is never followed. A regular
// file already there (another attacher's) serves as the trigger and is
// left to whoever made it; anything else there is refused.
func createTrigger(dir, name string) (remove func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Openat(int(d.Fd()), name, unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if errors.Is(err, unix.EEXIST) {
		return existingTrigger(d, dir, name)
	}
	if err != nil {
		d.Close()
		return nil, &os.PathError{Op: "create", Path: filepath.Join(dir, name), Err: err}
	}
	unix.Close(fd)
	return func() {
		_ = unix.Unlinkat(int(d.Fd()), name, 0)
		d.Close()
	}, nil
}

// existingTrigger takes a regular file already at the trigger's name as
// the trigger, without opening or removing it; d is the directory.
func existingTrigger(d *os.File, dir, name string) (remove func(), err error) {
	var st unix.Stat_t
	err = unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		err = errors.New("not a regular file, and not jvmfit's: left alone")
	}
	if err != nil {
		d.Close()
		return nil, &os.PathError{Op: "create", Path: filepath.Join(dir, name), Err: err}
	}
	return func() { d.Close() }, nil
}

func dialUnix(ctx context.Context, path string) (net.Conn, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil && errors.Is(err, syscall.ECONNREFUSED) {
		return nil, fmt.Errorf("stale attach socket %s: %w", path, err)
	}
	return c, err
}

// catchesSIGQUIT reads the SigCgt mask of /proc/PID/status.
func catchesSIGQUIT(root string, pid int) bool {
	b, err := os.ReadFile(filepath.Join(root, strconv.Itoa(pid), "status"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<(syscall.SIGQUIT-1)) != 0
		}
	}
	return false
}

// removeStaleSocket removes the attach socket of pid once the process is
// gone or a zombie: a JVM deletes it when it exits on its own, not when
// SIGKILL or the OOM killer ends it. (A zombie's pid is not reused before
// it is reaped, so the socket cannot be another JVM's.)
func removeStaleSocket(pid int) {
	if syscall.Kill(pid, 0) != syscall.ESRCH {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		_, rest, _ := strings.Cut(string(b), ") ")
		if err == nil && !strings.HasPrefix(rest, "Z") {
			return
		}
	}
	_ = os.Remove(filepath.Join("/tmp", ".java_pid"+strconv.Itoa(pid)))
}
