package report

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// A tune answer whose candidate caps the framework's pools: the exec and
// JAVA_TOOL_OPTIONS forms carry them as system properties, the Kubernetes
// form as the container's env in the framework's own spelling; a knob with
// no environment form (Helidon's carriers) stays a system property only.
func TestTuneFormsCarryPoolKnobs(t *testing.T) {
	for _, c := range []struct {
		name  string
		pools []tune.PoolSetting
		env   string
	}{
		{"spring tomcat", []tune.PoolSetting{ps("server.tomcat.threads.max", "SERVER_TOMCAT_THREADS_MAX", 4), ps("server.tomcat.threads.min-spare", "SERVER_TOMCAT_THREADS_MINSPARE", 4)},
			"env:\n  - name: SERVER_TOMCAT_THREADS_MAX\n    value: \"4\"\n  - name: SERVER_TOMCAT_THREADS_MINSPARE\n    value: \"4\"\n"},
		{"quarkus", []tune.PoolSetting{ps("quarkus.thread-pool.max-threads", "QUARKUS_THREAD_POOL_MAX_THREADS", 4), ps("quarkus.vertx.event-loops-pool-size", "QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE", 1)},
			"env:\n  - name: QUARKUS_THREAD_POOL_MAX_THREADS\n    value: \"4\"\n  - name: QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE\n    value: \"1\"\n"},
		{"helidon", []tune.PoolSetting{ps("jdk.virtualThreadScheduler.parallelism", "", 1)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := []string{"-XX:+UseSerialGC"}
			for _, p := range c.pools {
				opts = append(opts, "-D"+p.Property+"="+itoa(p.Value))
			}
			r := &tune.Result{Goal: plan.Footprint, CPUs: 1, MemoryBytes: 96 * mi, Verdict: tune.Proven, Candidate: "serial-c1-pool4",
				Options: opts, PlanOptions: []string{"-Xmx40m"},
				Candidates: []tune.CandidateResult{{Candidate: tune.Candidate{Name: "serial-c1"}},
					{Candidate: tune.Candidate{Name: "serial-c1-pool4", Options: opts, Pools: c.pools}}}}
			f := TuneForms(r, "/p/prof.json")
			props := strings.Join(opts[1:], " ")
			if !strings.HasSuffix(f.Exec, "-- java -XX:+UseSerialGC "+props+" ...") {
				t.Errorf("exec form %q lacks %q", f.Exec, props)
			}
			if f.JavaToolOptions != "JAVA_TOOL_OPTIONS='-Xmx40m -XX:+UseSerialGC "+props+"'" {
				t.Errorf("JAVA_TOOL_OPTIONS form %q", f.JavaToolOptions)
			}
			res := "resources:\n  requests:\n    memory: 96Mi\n    cpu: \"1\"\n  limits:\n    memory: 96Mi\n    cpu: \"1\"\n"
			if f.Kubernetes != res+c.env {
				t.Errorf("kubernetes form:\n%s\nwant:\n%s", f.Kubernetes, res+c.env)
			}
			// Another candidate's pools are not the answer's.
			r.Candidate = "serial-c1"
			if k := TuneForms(r, "").Kubernetes; k != res {
				t.Errorf("kubernetes form of a candidate without pools:\n%s", k)
			}
		})
	}
}

func ps(property, env string, v int) tune.PoolSetting {
	return tune.PoolSetting{Property: property, Env: env, Value: v}
}
