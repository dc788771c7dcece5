package tune

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// poolLoad keeps 16 requests in flight: more than any capped pool, so a
// pool that grows with the load grows, and one that is capped cannot.
const poolLoad = `name: greet-closed-16
requests:
  greet:
    url: /api/greeting?name=jvmfit
phases:
  - name: warmup
    record: false
    model: closed
    workers: 16
    duration: 2s
    sequence: [greet]
  - name: measure
    model: closed
    workers: 16
    duration: 3s
    sequence: [greet]
`

// Issue 24: for each framework in workloads/, a real trial shows the cap
// of tune's pool candidate in effect, through the JVM's thread count (the
// probes' /proc count) at the end of the load, at the same limit and load
// with and without it. (The whole trial's peak can be a start-up burst:
// Micronaut's can be.) The knobs are the ones detection gives the jar, at
// 4 workers and 1 loop, as tune sets them. With 8 CPUs in sight (seeCPUs)
// each framework's default is larger:
//   - Tomcat prestarts its 10 min-spare workers and grows toward 200 with
//     16 requests in flight: at least 6 fewer with 4;
//   - Quarkus runs 2 × CPUs event loops (16) and grows its worker pool with
//     the blocking requests: at least 10 fewer with 1 loop and 4 workers;
//   - Micronaut serves on CPUs × 1.0 event loops (8): at least 5 fewer with 1;
//   - Helidon's virtual threads run on CPUs carriers (8, as many as the
//     load keeps busy): at least 4 fewer with 1.
//
// Jetty and Undertow are not in workloads/: their knobs are covered by
// internal/detect's fixtures and tune's candidate tests only.
func TestPoolCapsShowInThreadCount(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four real services twice each")
	}
	prereq.Root(t)
	clitest.NeedJava(t)
	const java25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
	prereq.Java(t, java25) // Helidon 4 needs 21+
	scen := filepath.Join(t.TempDir(), "closed16.yaml")
	if err := os.WriteFile(scen, []byte(poolLoad), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, jar, java string
		fewer          int
	}{
		{"greet-spring", "greet-spring/target/greet-spring.jar", clitest.Java17, 6},
		{"greet-quarkus", "greet-quarkus/target/quarkus-app/quarkus-run.jar", clitest.Java17, 10},
		{"greet-micronaut", "greet-micronaut/target/greet-micronaut.jar", clitest.Java17, 5},
		{"greet-helidon", "greet-helidon/target/greet-helidon.jar", java25, 4},
	} {
		t.Run(c.dir, func(t *testing.T) {
			jar := filepath.Join("..", "..", "..", "workloads", c.jar)
			prereq.Built(t, jar)
			r, err := detect.Jar(jar)
			if err != nil {
				t.Fatal(err)
			}
			var caps []string
			for _, k := range r.Pools() {
				caps = append(caps, k.SystemProperty(k.Value(4, 1)))
			}
			if len(caps) == 0 {
				t.Fatalf("%s (%s): no pool knobs", c.dir, r.Framework)
			}
			db := filepath.Join(t.TempDir(), "p.db")
			def := poolTrial(t, jar, c.java, scen, db, seeCPUs)
			capped := poolTrial(t, jar, c.java, scen, db, seeCPUs+" "+strings.Join(caps, " "))
			t.Logf("%s at 512Mi, 2 CPU (8 in sight), 16 in flight: threads under load %d → %d (peak %d → %d), cgroup peak %.1f → %.1f MiB, %.0f → %.0f req/s (%s); load average %s",
				c.dir, def.threads, capped.threads, def.peakThreads, capped.peakThreads, def.peakMiB, capped.peakMiB, def.rps, capped.rps, strings.Join(caps, " "), loadAverage())
			if capped.threads > def.threads-c.fewer {
				t.Errorf("%s: %d threads under load with %s, %d without: want at least %d fewer", c.dir, capped.threads, caps, def.threads, c.fewer)
			}
		})
	}
}

// seeCPUs makes both trials' JVMs see 8 CPUs, as on a node without a CPU
// limit: the frameworks size their event loops and carriers from it, and
// on this 2-core machine the default would be 2, one more than the cap,
// which a transient thread of the app can hide.
const seeCPUs = "-XX:ActiveProcessorCount=8"

type poolFigures struct {
	threads, peakThreads int // at the end of the load, and the trial's peak
	peakMiB, rps         float64
}

// poolTrial runs one short trial of the jar under the closed load and
// returns its peak thread count, cgroup peak and throughput.
func poolTrial(t *testing.T, jar, java, scen, db, jvm string) poolFigures {
	t.Helper()
	stdout, stderr, code := clitest.Run(t, nil, "run", "--jar", jar, "--scenario", scen, "--memory", "512Mi", "--cpus", "2",
		"--java", java, "--db", db, "--slo", "success>=0.999", "--jvm", jvm, "--json")
	if code != 0 {
		t.Fatalf("run --jvm %q: exit %d\n%s%s", jvm, code, stdout, stderr)
	}
	var res struct {
		Summary struct {
			ThreadsPeak int   `json:"threads_peak"`
			CgroupPeak  int64 `json:"cgroup_peak"`
		} `json:"summary"`
		Load struct {
			Throughput float64 `json:"throughput"`
		} `json:"load"`
		// Series are the probes' samples; the last one is taken as the
		// load ends, before the app is stopped.
		Series []struct {
			Threads int `json:"threads"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Summary.ThreadsPeak == 0 || len(res.Series) == 0 {
		t.Fatalf("run --jvm %q: no thread count in %q (%v)", jvm, stdout, err)
	}
	return poolFigures{res.Series[len(res.Series)-1].Threads, res.Summary.ThreadsPeak, float64(res.Summary.CgroupPeak) / (1 << 20), res.Load.Throughput}
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
