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

func TestPostgresRunsUnprivilegedInItsOwnCgroupAndLeavesNothing(t *testing.T) {
	bin := needPostgres(t)
	needRoot(t)
	in, err := Start(context.Background(), app.Service{Name: "db", Kind: KindPostgres, Memory: 256 * size.MiB, CPUs: 1},
		Options{Database: "inventory"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Stop() })
	ex := in.Exports()
	port, _ := strconv.Atoi(ex["db_port"])
	if port <= 0 || ex["db_url"] != "jdbc:postgresql://127.0.0.1:"+ex["db_port"]+"/inventory" ||
		ex["db_user"] != "inventory" || len(ex["db_password"]) < 16 || ex["db_host"] != "127.0.0.1" {
		t.Fatalf("exports %v", ex)
	}
	// The app's role owns the app's database and can make tables in it.
	if out, err := psql(t, bin, ex, "inventory", "CREATE TABLE t(x int); INSERT INTO t VALUES (7); SELECT sum(x) FROM t"); err != nil || !strings.HasSuffix(out, "7") {
		t.Fatalf("app role cannot use its database: %v: %s", err, out)
	}
	if out, _ := psql(t, bin, ex, "inventory", "SHOW fsync"); out != "off" {
		t.Errorf("fsync %q, want off for a throwaway cluster", out)
	}
	if out, _ := psql(t, bin, ex, "inventory", "SHOW shared_buffers"); out != "64MB" {
		t.Errorf("shared_buffers %q, want a quarter of 256Mi", out)
	}
	pid := in.Pid()
	if uid := uidOf(pid); uid == "0" || uid == "" {
		t.Errorf("server runs as uid %q, want the unprivileged postgres user", uid)
	}
	if cg := cgroupOf(pid); !strings.Contains(cg, "jvmfit-svc-db") {
		t.Errorf("server is in memory cgroup %q, want its own jvmfit-svc-db group", cg)
	}
	dir := in.(*postgres).DataDir()
	if _, err := os.Stat(dir + "/data/PG_VERSION"); err != nil {
		t.Fatalf("no cluster in %s: %v", dir, err)
	}
	// Work that shows in the footprint.
	if _, err := psql(t, bin, ex, "inventory", "SELECT count(*) FROM generate_series(1, 300000) g JOIN generate_series(1, 300000) h ON g = h"); err != nil {
		t.Fatal(err)
	}
	live, err := in.Stats()
	if err != nil || live.MemoryPeak <= 0 || live.CPUTime <= 0 {
		t.Errorf("live stats %+v, %v", live, err)
	}
	u, err := in.Stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("usage: peak %s, cpu %s", size.Format(u.MemoryPeak), u.CPUTime)
	if u.MemoryPeak < 5*size.MiB || u.MemoryPeak > 256*size.MiB || u.CPUTime <= 0 || u.MemoryLimit != 256*size.MiB || u.OOMKilled || u.MemoryPeak < live.MemoryPeak {
		t.Errorf("usage %+v", u)
	}
	if !zombie(pid) {
		t.Errorf("server pid %d still running after Stop", pid)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("data directory %s still there: %v", dir, err)
	}
	if pids, dirs := leftovers(t); len(pids)+len(dirs) > 0 {
		t.Errorf("left behind: pids %v, dirs %v", pids, dirs)
	}
	if u2, _ := in.Stop(); u2 != u {
		t.Errorf("second Stop gave %+v, want the same usage", u2)
	}
	if Live() != 0 {
		t.Errorf("%d services still registered", Live())
	}
}

func TestCancelShutsDownAndRemovesData(t *testing.T) {
	needPostgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, err := Start(ctx, app.Service{Name: "db", Kind: KindPostgres}, Options{NoLimits: os.Geteuid() != 0})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Stop() })
	pid, dir := in.Pid(), in.(*postgres).DataDir()
	cancel()
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, serr := os.Stat(dir)
		if zombie(pid) && os.IsNotExist(serr) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("15s after cancel: pid %d gone %v, dir %s err %v", pid, zombie(pid), dir, serr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServerThatCannotStartIsOneClearError(t *testing.T) {
	needPostgres(t)
	needRoot(t)
	before := orphanShm(t)
	// 8 MiB cannot hold even the smallest shared memory segment.
	_, err := Start(context.Background(), app.Service{Name: "db", Kind: KindPostgres, Memory: 8 * size.MiB, CPUs: 1}, Options{ReadyTimeout: 20 * time.Second})
	if err == nil {
		t.Fatal("a cluster started in 8 MiB")
	}
	t.Log(err)
	if !strings.HasPrefix(err.Error(), `service "db" (postgres): `) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q: want one line naming the service", err)
	}
	if after := orphanShm(t); after > before {
		t.Errorf("%d orphaned shared memory segments, %d before", after, before)
	}
	if pids, dirs := leftovers(t); len(pids)+len(dirs) > 0 {
		t.Errorf("left behind: pids %v, dirs %v", pids, dirs)
	}
}

func TestUnknownKindAndBadDatabaseName(t *testing.T) {
	_, err := Start(context.Background(), app.Service{Name: "q", Kind: "rabbitmq"}, Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown kind "rabbitmq"`) {
		t.Errorf("got %v", err)
	}
	needPostgres(t)
	_, err = Start(context.Background(), app.Service{Name: "db", Kind: KindPostgres}, Options{Database: "x; DROP"})
	if err == nil || !strings.Contains(err.Error(), "database name") {
		t.Errorf("got %v", err)
	}
}

func TestSharedBuffers(t *testing.T) {
	for _, c := range []struct{ limit, want int64 }{
		{0, 128 * size.MiB}, {32 * size.MiB, 16 * size.MiB}, {256 * size.MiB, 64 * size.MiB}, {4 * size.GiB, 128 * size.MiB},
	} {
		if got := sharedBuffers(c.limit); got != c.want {
			t.Errorf("sharedBuffers(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
}
