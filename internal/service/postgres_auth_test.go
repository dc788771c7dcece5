//go:build linux

package service

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// nobody is the other local user: any account on the host shares the
// loopback with the trial's cluster.
const nobody = 65534

// TestPostgresRefusesOtherLocalUser: another local user reaching the
// cluster over 127.0.0.1 gets in as no role without the password, the
// superuser included; the app's role with its password does.
func TestPostgresRefusesOtherLocalUser(t *testing.T) {
	bin := needPostgres(t)
	needRoot(t)
	in, err := Start(context.Background(), app.Service{Name: "db", Kind: KindPostgres, Memory: 256 * size.MiB, CPUs: 1},
		Options{Database: "inventory"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Stop() })
	ex := in.Exports()
	for _, c := range []struct{ user, password string }{
		{superuser, ""}, {ex["db_user"], ""}, {superuser, "wrong"}, {ex["db_user"], "wrong"},
	} {
		if out, err := psqlAs(bin, nobody, ex, c.user, c.password); err == nil {
			t.Errorf("uid %d got in as %s with password %q: %s", nobody, c.user, c.password, out)
		} else if !strings.Contains(out, "password authentication failed") && !strings.Contains(out, "no password supplied") {
			t.Errorf("uid %d as %s: refused for another reason than the password: %s", nobody, c.user, out)
		}
	}
	if out, err := psqlAs(bin, nobody, ex, ex["db_user"], ex["db_password"]); err != nil || out != "inventory" {
		t.Errorf("the app's role with its password: %v: %s", err, out)
	}
	// The socket directory is the server account's alone.
	st, err := os.Stat(filepath.Join(in.(*postgres).DataDir(), "sock"))
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("socket directory: %v, mode %v, want 0700", err, st.Mode().Perm())
	}
}

// psqlAs connects over TCP as uid, with the password in PGPASSWORD ("" =
// none), and prints the current database.
func psqlAs(bin string, uid int, ex map[string]string, user, password string) (string, error) {
	cmd := exec.Command(filepath.Join(bin, "psql"), "-X", "-A", "-t", "-w", "-h", ex["db_host"], "-p", ex["db_port"],
		"-U", user, "-d", "inventory", "-c", "SELECT current_database()")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent", "PGCONNECT_TIMEOUT=5"}
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}
