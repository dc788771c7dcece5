package detect

import (
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/prereq"
	"reflect"
	"testing"
)

// The embedded server of a Spring Boot jar, from its BOOT-INF/lib, and the
// knobs each one gets. Jetty and Undertow are not in workloads/: these
// fixtures are their only cover.
func TestSpringServerAndItsPools(t *testing.T) {
	for _, c := range []struct {
		name   string
		libs   []string
		server string
		props  []string
	}{
		{"tomcat", []string{"spring-boot-3.5.16.jar", "tomcat-embed-core-10.1.55.jar"}, Tomcat,
			[]string{"server.tomcat.threads.max", "server.tomcat.threads.min-spare"}},
		{"jetty", []string{"spring-boot-3.5.16.jar", "jetty-server-12.0.30.jar", "jetty-ee10-servlet-12.0.30.jar"}, Jetty,
			[]string{"server.jetty.threads.max", "server.jetty.threads.min"}},
		{"undertow", []string{"spring-boot-3.5.16.jar", "undertow-core-2.3.20.Final.jar", "undertow-servlet-2.3.20.Final.jar"}, Undertow,
			[]string{"server.undertow.threads.worker", "server.undertow.threads.io"}},
		// Spring Boot picks Tomcat when a jar carries two containers.
		{"tomcat and jetty", []string{"spring-boot-3.5.16.jar", "jetty-server-12.0.30.jar", "tomcat-embed-core-10.1.55.jar"}, Tomcat,
			[]string{"server.tomcat.threads.max", "server.tomcat.threads.min-spare"}},
		{"webflux", []string{"spring-boot-3.5.16.jar", "reactor-netty-http-1.2.10.jar"}, ReactorNetty, nil},
		{"no server", []string{"spring-boot-3.5.16.jar"}, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			entries := map[string][]byte{"META-INF/MANIFEST.MF": manifest("Main-Class: org.springframework.boot.loader.launch.JarLauncher",
				"Start-Class: a.App", "Spring-Boot-Version: 3.5.16")}
			for _, l := range c.libs {
				entries["BOOT-INF/lib/"+l] = nil
			}
			r, err := Jar(writeJar(t, t.TempDir(), "app.jar", entries))
			if err != nil {
				t.Fatal(err)
			}
			var props []string
			for _, k := range r.Pools() {
				props = append(props, k.Property)
			}
			if r.Framework != SpringBoot || r.Server != c.server || !reflect.DeepEqual(props, c.props) {
				t.Errorf("framework %s, server %q, knobs %q; want server %q, knobs %q", r.Framework, r.Server, props, c.server, c.props)
			}
		})
	}
}

// Each framework's knobs, set for a pool of 6 workers and 1 loop: the
// minimum-size knobs stay at the framework's own minimum or below, Jetty's
// maximum covers its acceptors and selectors, and loops get the loop size.
func TestPoolValuesPerFramework(t *testing.T) {
	opts := func(r *Result, workers, loops int) []string {
		var o []string
		for _, k := range r.Pools() {
			o = append(o, k.SystemProperty(k.Value(workers, loops)))
		}
		return o
	}
	for _, c := range []struct {
		r              Result
		workers, loops int
		want           []string
	}{
		{Result{Framework: SpringBoot, Server: Tomcat}, 6, 1, []string{"-Dserver.tomcat.threads.max=6", "-Dserver.tomcat.threads.min-spare=6"}},
		{Result{Framework: SpringBoot, Server: Tomcat}, 16, 1, []string{"-Dserver.tomcat.threads.max=16", "-Dserver.tomcat.threads.min-spare=10"}},
		{Result{Framework: SpringBoot, Server: Jetty}, 6, 1, []string{"-Dserver.jetty.threads.max=8", "-Dserver.jetty.threads.min=6"}},
		{Result{Framework: SpringBoot, Server: Undertow}, 6, 1, []string{"-Dserver.undertow.threads.worker=6", "-Dserver.undertow.threads.io=1"}},
		{Result{Framework: Quarkus}, 6, 1, []string{"-Dquarkus.thread-pool.max-threads=6", "-Dquarkus.vertx.event-loops-pool-size=1"}},
		{Result{Framework: Micronaut}, 6, 1, []string{"-Dmicronaut.netty.event-loops.default.num-threads=1"}},
		{Result{Framework: Helidon}, 6, 2, []string{"-Djdk.virtualThreadScheduler.parallelism=2", "-Djdk.virtualThreadScheduler.maxPoolSize=2"}},
		{Result{Framework: Plain}, 6, 1, nil},
		{Result{Framework: Unknown}, 6, 1, nil},
	} {
		if got := opts(&c.r, c.workers, c.loops); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: %q, want %q", c.r.Framework, c.r.Server, got, c.want)
		}
	}
}

// Every knob with an environment form spells it as the framework maps it:
// upper case, dots and dashes to underscores (Spring's relaxed binding
// drops dashes instead).
func TestPoolEnvForms(t *testing.T) {
	all := append(append(append([]Knob{}, quarkusPools...), micronautPools...), helidonPools...)
	for _, ks := range springPools {
		all = append(all, ks...)
	}
	for _, k := range all {
		if k.Env == "" {
			continue
		}
		var want []byte
		spring := k.Property[:7] == "server."
		for _, ch := range []byte(k.Property) {
			switch {
			case ch == '-' && spring:
			case ch == '.' || ch == '-':
				want = append(want, '_')
			case ch >= 'a' && ch <= 'z':
				want = append(want, ch-'a'+'A')
			default:
				want = append(want, ch)
			}
		}
		if k.Env != string(want) {
			t.Errorf("%s: env %s, want %s", k.Property, k.Env, want)
		}
	}
}

// The sample services' real jars: greet-spring carries Tomcat, and each
// framework in workloads/ but the plain one has knobs.
func TestWorkloadJarsPools(t *testing.T) {
	for _, c := range []struct {
		jar, server string
		knobs       int
	}{
		{"greet-spring/target/greet-spring.jar", Tomcat, 2},
		{"greet-quarkus/target/quarkus-app/quarkus-run.jar", "", 2},
		{"greet-micronaut/target/greet-micronaut.jar", "", 1},
		{"greet-helidon/target/greet-helidon.jar", "", 2},
		{"greet-plain/target/greet-plain.jar", "", 0},
	} {
		jar := filepath.Join("..", "..", "workloads", c.jar)
		prereq.Built(t, jar)
		r, err := Jar(jar)
		if err != nil {
			t.Fatal(err)
		}
		if r.Server != c.server || len(r.Pools()) != c.knobs {
			t.Errorf("%s: server %q, %d knobs; want %q, %d", c.jar, r.Server, len(r.Pools()), c.server, c.knobs)
		}
	}
}
