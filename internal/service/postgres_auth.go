//go:build linux

package service

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// Every connection to a trial's cluster needs a password, the unix socket
// included: the server listens on 127.0.0.1, which every local user and
// every host-networked container shares, and its superuser could run
// COPY … FROM PROGRAM as the server's account (the host's postgres user).
// Passwords go through files and the environment, never a command line,
// which any local user can read in /proc.
const hba = "local all all scram-sha-256\nhost all all 127.0.0.1/32 scram-sha-256\n"

// writeHBA replaces initdb's pg_hba.conf with hba.
func writeHBA(data string, acct account) error {
	p := filepath.Join(data, "pg_hba.conf")
	if err := os.WriteFile(p, []byte(hba), 0o600); err != nil {
		return err
	}
	if acct.drop {
		return os.Chown(p, acct.uid, acct.gid)
	}
	return nil
}

// pwfile writes the superuser's password for initdb --pwfile into dir (the
// cluster's 0700 root), readable by the server's account alone; remove
// deletes it once initdb has read it.
func pwfile(dir, password string, acct account) (path string, remove func(), err error) {
	f, err := os.CreateTemp(dir, "pwfile-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.Remove(f.Name()) }
	_, err = f.WriteString(password + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && acct.drop {
		err = os.Chown(f.Name(), acct.uid, acct.gid)
	}
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("cannot write the superuser's password file: %v", err)
	}
	return f.Name(), remove, nil
}

// withPassword is env plus the password for libpq's clients (psql).
func withPassword(env []string, password string) []string {
	return append(env[:len(env):len(env)], "PGPASSWORD="+password)
}

// randomPassword is 24 hex digits: plain in SQL quotes and in a pwfile.
func randomPassword() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
