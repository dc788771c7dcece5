//go:build linux

package service

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// A command that binds every address is ready on loopback, and then
// refused in one line naming what it listens on; the same bind made by a
// child of the command (a shell that starts the server) is found too; the
// process and its group are gone. One that binds 127.0.0.1 alone starts.
func TestACommandListeningBeyondLoopbackIsRefused(t *testing.T) {
	needRoot(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The mark, an argument listen ignores, finds what is left.
	mark := "61.1" + strconv.Itoa(os.Getpid())
	for _, c := range []struct {
		name    string
		command []string
		want    string
	}{
		{"0.0.0.0", []string{exe, "listen", "tcp4", "0.0.0.0:${port}", mark}, "0.0.0.0:"},
		{"[::] from a child", []string{"sh", "-c", exe + " listen tcp :${port} " + mark + "; true"}, "[::]:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := app.Service{Name: "auth", Kind: KindCommand, Memory: 32 * size.MiB,
				Command: c.command, Ready: "port", ReadyTimeout: 30 * time.Second, Dir: t.TempDir()}
			in, err := Start(context.Background(), s, Options{})
			if err == nil {
				in.Stop()
				t.Fatal("a command listening beyond loopback was started")
			}
			msg := err.Error()
			t.Log(msg)
			for _, want := range []string{`service "auth" (command)`, "listens on " + c.want, "bind 127.0.0.1"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q", want)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Error("error is more than one line")
			}
			time.Sleep(100 * time.Millisecond)
			if pids, dirs := leftoversOf(t, mark); len(pids) > 0 || len(dirs) > 0 {
				t.Errorf("left behind: processes %v, groups %v", pids, dirs)
			}
		})
	}
	s := app.Service{Name: "auth", Kind: KindCommand, Command: []string{exe, "listen", "tcp", "127.0.0.1:${port}"}, Ready: "port", Dir: t.TempDir()}
	in, err := Start(context.Background(), s, Options{})
	if err != nil {
		t.Fatalf("a command on 127.0.0.1 alone: %v", err)
	}
	in.Stop()
}
