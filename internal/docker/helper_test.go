//go:build linux

package docker_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

const (
	jdk17Image     = "jvmfit-test/jdk17:latest"
	jdk25Image     = "jvmfit-test/jdk25:latest"
	filecacheImage = "jvmfit-test/filecache:jdk17"
	mi             = 1 << 20
)

var images = struct {
	sync.Mutex
	built map[string]bool
}{built: map[string]bool{}}

// need builds (or finds, through their inputs label) the test images.
func need(t testing.TB, refs ...string) {
	t.Helper()
	prereq.Docker(t)
	images.Lock()
	defer images.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := docker.Default()
	for _, ref := range refs {
		if images.built[ref] {
			continue
		}
		var err error
		switch ref {
		case jdk17Image:
			prereq.Java(t, image.JDK17+"/bin/java")
			_, err = image.JDKBase(ctx, e, image.JDK17, ref)
		case jdk25Image:
			prereq.Java(t, image.JDK25+"/bin/java")
			_, err = image.JDKBase(ctx, e, image.JDK25, ref)
		case filecacheImage:
			_, f, _, _ := runtime.Caller(0)
			jar := filepath.Join(filepath.Dir(f), "..", "..", "workloads", "filecache", "target", "filecache.jar")
			prereq.Built(t, jar)
			if _, err = image.JDKBase(ctx, e, image.JDK17, jdk17Image); err == nil {
				_, err = image.App(ctx, e, jdk17Image, jar, ref)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		images.built[ref] = true
	}
}

func sandbox(t *testing.T) *docker.Sandbox {
	t.Helper()
	prereq.Root(t)
	s, err := docker.New(context.Background(), docker.Default())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitReady polls url until it answers 200, the process exits, or limit.
func waitReady(p *docker.Process, url string, limit time.Duration) error {
	end := time.Now().Add(limit)
	c := http.Client{Timeout: time.Second}
	for time.Now().Before(end) {
		if r, err := c.Get(url); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return nil
			}
		}
		select {
		case <-p.Done():
			return fmt.Errorf("the container exited before %s answered: %+v", url, p.Exit())
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s did not answer 200 within %v", url, limit)
}

// containers lists the ids of the containers labelled with this pid.
func containers(t *testing.T, pid int) []string {
	t.Helper()
	out, err := docker.Default().Run(context.Background(), nil, "ps", "--all", "--quiet",
		"--filter", "label="+docker.LabelPid+"="+strconv.Itoa(pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(out)
}

func readCgroupInt(t *testing.T, path string) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// cgroupOf reads a file of pid's cgroup in a controller's hierarchy.
func cgroupOf(t *testing.T, pid int, controller, file string) string {
	t.Helper()
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && strings.Contains(","+parts[1]+",", ","+controller+",") {
			v, err := os.ReadFile(filepath.Join(h.Mounts[controller], parts[2], file))
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimSpace(string(v))
		}
	}
	t.Fatalf("pid %d has no %s cgroup", pid, controller)
	return ""
}
