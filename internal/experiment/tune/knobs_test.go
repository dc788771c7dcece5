package tune

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func TestPoolSizes(t *testing.T) {
	for _, c := range []struct {
		cpus, inFlight float64
		workers, loops int
	}{
		{1, 0.5, 4, 1},  // 100 req/s at a 5 ms p99: the CPU floor
		{0.5, 0, 4, 1},  // a fraction of a CPU is one CPU to the JVM
		{1, 16, 32, 1},  // a closed model of 16 workers
		{2, 3, 8, 1},    // 2 CPUs: one loop still leaves one CPU free
		{4, 2.2, 16, 2}, // loops: one per two CPUs
	} {
		w, l := poolSizes(c.cpus, c.inFlight)
		if w != c.workers || l != c.loops {
			t.Errorf("%g CPU, %g in flight: %d workers, %d loops; want %d, %d", c.cpus, c.inFlight, w, l, c.workers, c.loops)
		}
	}
}

// The pool candidate is the first pair's options with the framework's
// knobs as system properties, right after that pair; a framework without
// knobs adds none.
func TestWithPoolsPerFramework(t *testing.T) {
	cs, err := Candidates(plan.Footprint, 1, 17, &plan.Profile{LiveHeapBytes: 20 * tmib}, "/tmp/a")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r     detect.Result
		props []string
	}{
		{detect.Result{Framework: detect.SpringBoot, Server: detect.Tomcat}, []string{"-Dserver.tomcat.threads.max=4", "-Dserver.tomcat.threads.min-spare=4"}},
		{detect.Result{Framework: detect.SpringBoot, Server: detect.Jetty}, []string{"-Dserver.jetty.threads.max=8", "-Dserver.jetty.threads.min=4"}},
		{detect.Result{Framework: detect.SpringBoot, Server: detect.Undertow}, []string{"-Dserver.undertow.threads.worker=4", "-Dserver.undertow.threads.io=1"}},
		{detect.Result{Framework: detect.Quarkus}, []string{"-Dquarkus.thread-pool.max-threads=4", "-Dquarkus.vertx.event-loops-pool-size=1"}},
		{detect.Result{Framework: detect.Micronaut}, []string{"-Dmicronaut.netty.event-loops.default.num-threads=1"}},
		{detect.Result{Framework: detect.Helidon}, []string{"-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1"}},
	} {
		got := withPools(cs, c.r.Pools(), 1, 0.5)
		// The launcher's two plans, the first pair, then its pool variant.
		const i = 2
		if len(got) != len(cs)+1 || !got[0].Launcher || !got[1].Launcher || got[i].Name != cs[i].Name || got[i+1].Name != cs[i].Name+"-pool4" ||
			!reflect.DeepEqual(got[i+2:], cs[i+1:]) {
			t.Fatalf("%s %s: order %v", c.r.Framework, c.r.Server, names(got))
		}
		p := got[i+1]
		if !reflect.DeepEqual(p.Options, join(cs[i].Options, c.props)) || len(p.Pools) != len(c.props) {
			t.Errorf("%s %s: options %q, pools %+v; want the first pair's and %q", c.r.Framework, c.r.Server, p.Options, p.Pools, c.props)
		}
	}
	for _, f := range []detect.Framework{detect.Plain, detect.Unknown} {
		r := detect.Result{Framework: f}
		if got := withPools(cs, r.Pools(), 1, 0.5); !reflect.DeepEqual(got, cs) {
			t.Errorf("%s: %v", f, names(got))
		}
	}
}

// sloMiss makes one candidate miss the SLO at every limit: a cap too
// small for the load.
type sloMiss struct {
	*simApp
	name string
}

func (s sloMiss) Run(ctx context.Context, p Point) (Outcome, error) {
	o, err := s.simApp.Run(ctx, p)
	if p.Candidate == s.name && p.Purpose == PurposeSearch {
		o = Outcome{Verdict: trial.KO, Kind: trial.KindSLO, P99: time.Second, StartSeconds: 3}
	}
	return o, err
}

// A capped pool is tried early and judged by its trials: where it holds
// the SLO at a smaller limit it is the answer, and the answer's env names
// the framework's knobs; where it misses the SLO it is never the answer.
func TestSearchJudgesThePoolCandidate(t *testing.T) {
	tomcat := (&detect.Result{Framework: detect.SpringBoot, Server: detect.Tomcat}).Pools()
	const pool = "serial-c1-pool4"

	a := footprintApp()
	a.cands[pool] = simCand{min: 85 * tmib, p99: 9 * time.Millisecond, start: 3.0, floorBelow: 10 * tmib}
	cfg := simConfig(a, plan.Footprint, 30)
	cfg.Pools = tomcat
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Candidate != pool || r.Verdict != Proven || r.MemoryBytes != 88*tmib {
		t.Fatalf("answer %s at %d MiB (%s); want %s at 88 MiB, proven\n%v", r.Candidate, r.MemoryBytes/tmib, r.Verdict, pool, r.Notes)
	}
	env := r.Answer("p.json").AppEnv
	if !reflect.DeepEqual(env, map[string]string{"SERVER_TOMCAT_THREADS_MAX": "4", "SERVER_TOMCAT_THREADS_MINSPARE": "4"}) {
		t.Errorf("answer env %v", env)
	}
	if !strings.Contains(strings.Join(r.JVMOptions(), " "), "-Dserver.tomcat.threads.max=4") {
		t.Errorf("answer options %q", r.JVMOptions())
	}

	b := footprintApp()
	b.cands[pool] = simCand{min: 85 * tmib, p99: 9 * time.Millisecond, start: 3.0, floorBelow: 10 * tmib}
	cfg = simConfig(b, plan.Footprint, 30)
	cfg.Pools = tomcat
	r, err = Run(context.Background(), cfg, sloMiss{b, pool})
	if err != nil {
		t.Fatal(err)
	}
	var tried int
	for _, c := range r.Candidates {
		if c.Name == pool {
			tried = c.Trials
			if c.MinOKBytes != 0 {
				t.Errorf("%s passed at %d MiB", pool, c.MinOKBytes/tmib)
			}
		}
	}
	if tried == 0 || r.Candidate == pool || r.Verdict == None || r.Answer("").AppEnv != nil {
		t.Errorf("the pool was tried %d times; answer %s (%s), env %v", tried, r.Candidate, r.Verdict, r.Answer("").AppEnv)
	}
}
