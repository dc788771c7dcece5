//go:build linux

package service

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
)

// serverUser is the account the PostgreSQL server runs as when jvmfit is
// root: postgres refuses to run as root, and the Debian package creates
// this system user.
const serverUser = "postgres"

// account is who runs the server; zero (asRoot false) = jvmfit's own user.
type account struct {
	drop     bool // jvmfit is root: switch to uid/gid
	uid, gid int
	name     string
}

func serverAccount() (account, error) {
	if os.Geteuid() != 0 {
		return account{}, nil
	}
	u, err := user.Lookup(serverUser)
	if err != nil {
		return account{}, fmt.Errorf("jvmfit runs as root and PostgreSQL refuses to: create the system user %q (the Debian postgresql package does) or run jvmfit as another user", serverUser)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return account{drop: true, uid: uid, gid: gid, name: u.Username}, nil
}

// wrap prefixes argv so that it runs as the account. setpriv execs in
// place, so the pid the sandbox watches stays the server's. Changing
// credentials clears the parent-death signal, hence the second setpriv,
// which sets it again once already unprivileged.
func (a account) wrap(argv []string) []string {
	if !a.drop {
		return argv
	}
	out := []string{"setpriv", "--reuid=" + strconv.Itoa(a.uid), "--regid=" + strconv.Itoa(a.gid), "--clear-groups",
		"--", "setpriv", "--pdeathsig", "KILL", "--"}
	return append(out, argv...)
}
