//go:build linux

package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/size"
)

// KindPostgres is a throwaway PostgreSQL cluster from the installed server
// binaries.
const KindPostgres = "postgres"

const (
	// superuser is the cluster's bootstrap role; the app gets its own.
	superuser = "postgres"
	// maxConnections leaves room for seed 002's pool (CPUs × 20) up to
	// 8 CPUs plus tools; each slot costs only a few KB of shared memory.
	maxConnections = 200
	// fastShutdownGrace is how long a fast shutdown (SIGINT) may take
	// before the cgroup is killed.
	fastShutdownGrace = 5 * time.Second
)

type postgres struct {
	svc      app.Service
	dir      string // temp root: data/ and sock/
	port     int
	db, user string
	password string // the app's role's
	superPW  string // the superuser's, jvmfit's alone
	proc     *sandbox.Process
	tail     *tail
	stopper
}

func startPostgres(ctx context.Context, s app.Service, o Options) (Instance, error) {
	sweepStaleOnce()
	bin, err := postgresBin()
	if err != nil {
		return nil, err
	}
	acct, err := serverAccount()
	if err != nil {
		return nil, err
	}
	db := o.Database
	if db == "" {
		db = "app"
	}
	if !identifier().MatchString(db) {
		return nil, fmt.Errorf("service %q: database name %q: use lower-case letters, digits and _", s.Name, db)
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("service %q: cannot make its data directory: %v", s.Name, err)
	}
	pg := &postgres{svc: s, dir: dir, db: db, user: db, password: randomPassword(),
		superPW: randomPassword(), tail: &tail{}, stopper: newStopper()}
	registerDir(dir)
	fail := func(err error) (Instance, error) {
		pg.Stop()
		return nil, fmt.Errorf("service %q (postgres): %v", s.Name, err)
	}
	if err := pg.initdb(ctx, bin, acct); err != nil {
		return fail(err)
	}
	if pg.port, err = app.FreePort(); err != nil {
		return fail(err)
	}
	if err := pg.startServer(ctx, bin, acct, o); err != nil {
		return fail(err)
	}
	register(pg)
	go pg.watch(ctx)
	timeout := o.ReadyTimeout
	if timeout <= 0 {
		timeout = DefaultReadyTimeout
	}
	if err := pg.awaitReady(ctx, bin, timeout); err != nil {
		return fail(err)
	}
	if err := pg.createAppDatabase(ctx, bin); err != nil {
		return fail(err)
	}
	return pg, nil
}

// startServer runs the server in a cgroup of its own, its output to the
// tail (and o.Log).
func (pg *postgres) startServer(ctx context.Context, bin string, acct account, o Options) error {
	var out io.Writer = pg.tail
	if o.Log != nil {
		out = io.MultiWriter(pg.tail, o.Log)
	}
	// The server outlives ctx's cancellation by a fast shutdown, which
	// Stop (below, via watch) runs; the sandbox's own cancel path would
	// send SIGTERM, a smart shutdown that waits for clients.
	var err error
	pg.proc, err = sandbox.Start(context.WithoutCancel(ctx), sandbox.Spec{
		Name:     "jvmfit-svc-" + pg.svc.Name,
		Argv:     acct.wrap(pg.serverArgv(bin)),
		Env:      serverEnv(),
		Dir:      pg.dir,
		Limits:   cgroup.Spec{MemoryBytes: pg.svc.Memory, CPUs: pg.svc.CPUs, CPUSet: o.CPUSet},
		NoLimits: o.NoLimits,
		Stdout:   out, Stderr: out,
	})
	return err
}

var identifier = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`) })

// initdb makes the cluster as the server's account, its superuser's
// password from a file (postgres_auth.go).
func (pg *postgres) initdb(ctx context.Context, bin string, acct account) error {
	data := filepath.Join(pg.dir, "data")
	for _, d := range []string{data, filepath.Join(pg.dir, "sock")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	if acct.drop {
		for _, d := range []string{pg.dir, data, filepath.Join(pg.dir, "sock")} {
			if err := os.Chown(d, acct.uid, acct.gid); err != nil {
				return fmt.Errorf("cannot give %s to user %s: %v", d, acct.name, err)
			}
		}
	}
	pw, removePW, err := pwfile(pg.dir, pg.superPW, acct)
	if err != nil {
		return err
	}
	defer removePW()
	// --no-sync: a throwaway cluster need not survive a power cut.
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", superuser,
		"--pwfile="+pw, "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
	cmd.Env = serverEnv()
	cmd.Dir = pg.dir
	if acct.drop {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(acct.uid), Gid: uint32(acct.gid)}}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("initdb failed (%v): %s", err, lastLines(string(out), 3))
	}
	return writeHBA(data, acct)
}

// serverArgv sets everything on the command line, so the cluster's files
// stay initdb's. fsync, synchronous_commit and full_page_writes are off:
// this is a test database that is thrown away, and durability would only
// add disk latency that production tuning would not have on a local SSD
// either.
func (pg *postgres) serverArgv(bin string) []string {
	return []string{filepath.Join(bin, "postgres"),
		"-D", filepath.Join(pg.dir, "data"),
		"-k", filepath.Join(pg.dir, "sock"),
		"-h", "127.0.0.1",
		"-p", strconv.Itoa(pg.port),
		"-c", "max_connections=" + strconv.Itoa(maxConnections),
		"-c", "password_encryption=scram-sha-256",
		"-c", "shared_buffers=" + strconv.FormatInt(sharedBuffers(pg.svc.Memory)/size.KiB, 10) + "kB",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "logging_collector=off",
		"-c", "log_min_messages=warning",
	}
}

// sharedBuffers follows the usual advice of a quarter of the memory, kept
// between 16 MiB and PostgreSQL's own default of 128 MiB, so a small
// limit is not mostly spent on the buffer pool.
func sharedBuffers(limit int64) int64 {
	const lo, hi = 16 * size.MiB, 128 * size.MiB
	if limit <= 0 {
		return hi
	}
	return min(max(limit/4, lo), hi)
}

func serverEnv() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TZ=UTC"}
}

// awaitReady polls pg_isready until the server accepts connections.
func (pg *postgres) awaitReady(ctx context.Context, bin string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		cmd := exec.CommandContext(ctx, filepath.Join(bin, "pg_isready"), "-q", "-h", "127.0.0.1",
			"-p", strconv.Itoa(pg.port), "-U", superuser, "-d", "postgres", "-t", "2")
		cmd.Env = serverEnv()
		if cmd.Run() == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-pg.proc.Done():
			return fmt.Errorf("the server exited (%s) before it was ready: %s", pg.proc.Exit(), pg.tail.last(3))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not accepting connections within %s: %s", timeout, pg.tail.last(3))
		}
	}
}

// createAppDatabase makes the app's role and database: the app loads its
// own schema, nothing else is put in. The SQL, which holds the role's
// password, goes through stdin, the superuser's through the environment.
func (pg *postgres) createAppDatabase(ctx context.Context, bin string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "psql"), "-X", "-q", "-w", "-v", "ON_ERROR_STOP=1",
		"-h", "127.0.0.1", "-p", strconv.Itoa(pg.port), "-U", superuser, "-d", "postgres", "-f", "-")
	cmd.Stdin = strings.NewReader(fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s';\nCREATE DATABASE %s OWNER %s;\n",
		pg.user, pg.password, pg.db, pg.user))
	cmd.Env = withPassword(serverEnv(), pg.superPW)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("cannot create database %s: %s", pg.db, lastLines(string(out), 2))
	}
	return nil
}

func (pg *postgres) Name() string          { return pg.svc.Name }
func (pg *postgres) Pid() int              { return pg.proc.Pid() }
func (pg *postgres) Done() <-chan struct{} { return pg.proc.Done() }

// DataDir is the cluster's temporary root, removed by Stop.
func (pg *postgres) DataDir() string { return pg.dir }

func (pg *postgres) Exports() map[string]string {
	n := pg.svc.Name + "_"
	port := strconv.Itoa(pg.port)
	return map[string]string{
		n + "host":     "127.0.0.1",
		n + "port":     port,
		n + "url":      "jdbc:postgresql://127.0.0.1:" + port + "/" + pg.db,
		n + "user":     pg.user,
		n + "password": pg.password,
	}
}

// watch stops the cluster as soon as ctx ends (jvmfit got SIGINT), so a
// fast shutdown runs even while the caller is still unwinding.
func (pg *postgres) watch(ctx context.Context) {
	select {
	case <-ctx.Done():
		pg.Stop()
	case <-pg.stopped:
	}
}

func (pg *postgres) Stats() (Usage, error) { return usageOf(pg.svc, KindPostgres, pg.proc) }

func (pg *postgres) Stop() (Usage, error) { return pg.stopOnce(pg.stop) }

func (pg *postgres) stop() (Usage, error) {
	u := Usage{Name: pg.svc.Name, Kind: KindPostgres, MemoryLimit: pg.svc.Memory, CPUs: pg.svc.CPUs}
	var errs []error
	if pg.proc != nil {
		key, id, hasShm := shmSegment(filepath.Join(pg.dir, "data"))
		select {
		case <-pg.proc.Done():
		default:
			// SIGINT is PostgreSQL's fast shutdown: it ends sessions and
			// removes its shared memory, which a SIGKILL would leave.
			_ = syscall.Kill(pg.proc.Pid(), syscall.SIGINT)
			select {
			case <-pg.proc.Done():
			case <-time.After(fastShutdownGrace):
			}
		}
		exit := pg.proc.Stop(time.Second)
		errs = append(errs, pg.proc.StopErr())
		if got, err := pg.Stats(); err == nil {
			u = got
			u.OOMKilled = u.OOMKilled || exit.OOMKilled
		}
		if hasShm {
			removeShm(key, id)
		}
		unregister(pg)
	}
	if err := os.RemoveAll(pg.dir); err != nil {
		errs = append(errs, fmt.Errorf("cannot remove %s: %v", pg.dir, err))
	}
	unregisterDir(pg.dir)
	return u, errors.Join(errs...)
}
