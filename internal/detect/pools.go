package detect

import "strconv"

// The framework's request-thread pools as knobs (docs/tune.md, "The
// framework's thread pools"). Each thread a pool starts costs its stack
// (touched pages, up to -Xss), the JVM's per-thread native structures and
// the kernel's task and its stack; a pool sized for a big machine (Tomcat's
// 200 workers) grows under concurrent load long after the CPUs are busy.
// Every name here was checked against the framework's own configuration
// metadata for the versions in workloads/ (Spring Boot 3.5, Quarkus 3.33,
// Micronaut 4.10, Helidon 4.5) and the JDK's virtual-thread scheduler.

// Embedded servers of a Spring Boot jar.
const (
	Tomcat       = "tomcat"
	Jetty        = "jetty"
	Undertow     = "undertow"
	ReactorNetty = "reactor-netty" // WebFlux: no pool knob here
)

// Pool says which of tune's two sizes a knob takes.
type Pool string

const (
	// Workers is a pool of request threads that may block: sized from the
	// CPUs and the load's concurrency.
	Workers Pool = "workers"
	// Loops is a pool of threads that never block (event loops, I/O
	// threads, virtual-thread carriers): sized from the CPUs alone.
	Loops Pool = "loops"
)

// Knob is one setting of the framework that bounds a thread pool.
type Knob struct {
	// Property is the framework's property, given to the JVM as a system
	// property (-Dname=value): every framework here reads them, so one
	// form reaches the app in a trial, under jvmfit exec and in
	// JAVA_TOOL_OPTIONS alike.
	Property string
	// Env is the same setting as an environment variable where the
	// framework documents one ("" where it does not).
	Env  string
	Pool Pool
	// Most caps the value: a minimum-size knob (Tomcat's min-spare) is
	// never set above the framework's own default minimum. 0: no cap.
	Most int
	// Least is the smallest value the framework starts with (Jetty's
	// maximum must cover its acceptor and selector threads).
	Least int
	// Bounds says what the knob bounds, and Default the framework's
	// default, in words (docs, --explain).
	Bounds, Default string
}

// Value is the knob's value for tune's pool sizes.
func (k Knob) Value(workers, loops int) int {
	v := workers
	if k.Pool == Loops {
		v = loops
	}
	if k.Most > 0 {
		v = min(v, k.Most)
	}
	return max(v, k.Least, 1)
}

// Pools are the knobs of the detected framework and server; nil when
// jvmfit knows none (a plain main class, WebFlux on Reactor Netty, an
// unknown framework).
func (r *Result) Pools() []Knob {
	switch r.Framework {
	case SpringBoot:
		return springPools[r.Server]
	case Quarkus:
		return quarkusPools
	case Micronaut:
		return micronautPools
	case Helidon:
		return helidonPools
	}
	return nil
}

// springPools: Spring Boot 3.5's server.* properties (the spring-boot-
// autoconfigure configuration metadata); Spring Boot 4 keeps the names.
// A system property is one of Spring's property sources; its environment
// form is relaxed binding's (dots to underscores, dashes dropped).
var springPools = map[string][]Knob{
	Tomcat: {
		{Property: "server.tomcat.threads.max", Env: "SERVER_TOMCAT_THREADS_MAX", Pool: Workers,
			Bounds: "Tomcat's request worker threads", Default: "200"},
		{Property: "server.tomcat.threads.min-spare", Env: "SERVER_TOMCAT_THREADS_MINSPARE", Pool: Workers, Most: 10,
			Bounds: "the worker threads Tomcat keeps when idle", Default: "10"},
	},
	Jetty: {
		// Jetty counts its acceptor and selector threads in the maximum
		// and refuses to start when they leave too few for requests.
		{Property: "server.jetty.threads.max", Env: "SERVER_JETTY_THREADS_MAX", Pool: Workers, Least: 8,
			Bounds: "Jetty's thread pool (acceptors and selectors included)", Default: "200"},
		{Property: "server.jetty.threads.min", Env: "SERVER_JETTY_THREADS_MIN", Pool: Workers, Most: 8,
			Bounds: "the threads Jetty keeps when idle", Default: "8"},
	},
	Undertow: {
		{Property: "server.undertow.threads.worker", Env: "SERVER_UNDERTOW_THREADS_WORKER", Pool: Workers,
			Bounds: "Undertow's blocking worker threads", Default: "8 × the I/O threads"},
		{Property: "server.undertow.threads.io", Env: "SERVER_UNDERTOW_THREADS_IO", Pool: Loops,
			Bounds: "Undertow's non-blocking I/O threads", Default: "the CPU count, at least 2"},
	},
}

// quarkusPools: Quarkus 3's run-time properties (quarkus-core's and
// quarkus-vertx's configuration model), with the environment variables
// that model names.
var quarkusPools = []Knob{
	{Property: "quarkus.thread-pool.max-threads", Env: "QUARKUS_THREAD_POOL_MAX_THREADS", Pool: Workers,
		Bounds: "the worker pool that runs blocking endpoints", Default: "max(200, 8 × CPUs)"},
	{Property: "quarkus.vertx.event-loops-pool-size", Env: "QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE", Pool: Loops,
		Bounds: "Vert.x's event loops", Default: "2 × CPUs"},
}

// micronautPools: Micronaut 4 runs a controller on the Netty event loop
// unless it says otherwise (thread selection MANUAL), on the "default"
// event-loop group the server shares with the HTTP client. Micronaut reads
// system properties and derives property names from environment variables.
var micronautPools = []Knob{
	{Property: "micronaut.netty.event-loops.default.num-threads", Env: "MICRONAUT_NETTY_EVENT_LOOPS_DEFAULT_NUM_THREADS", Pool: Loops,
		Bounds: "the Netty event loops that serve requests", Default: "CPUs × thread-core-ratio (1.0)"},
}

// helidonPools: Helidon 4 runs each request on a virtual thread, so its
// executor is the JDK's virtual-thread scheduler (JEP 444's system
// properties): its carriers are the platform threads. The scheduler adds
// carriers beyond its parallelism while a virtual thread blocks its
// carrier (file I/O, a pinned wait): capped at the parallelism, such a
// block delays the others instead, which the SLO judges.
// (server.max-concurrent-requests and server.concurrency-limit bound the
// virtual threads, not platform ones, and turn excess requests away with
// 503: tune does not set them.)
var helidonPools = []Knob{
	{Property: "jdk.virtualThreadScheduler.parallelism", Pool: Loops,
		Bounds: "the carrier threads that run Helidon's virtual threads", Default: "CPUs"},
	{Property: "jdk.virtualThreadScheduler.maxPoolSize", Pool: Loops,
		Bounds: "the carriers, those added while a virtual thread blocks its carrier included", Default: "max(CPUs, 256)"},
}

// serverOf is the embedded web server a Spring Boot jar carries, as
// Spring Boot would pick it: Tomcat first, then Jetty, then Undertow
// (ServletWebServerFactoryConfiguration's order); Reactor Netty when the
// jar is a WebFlux app without a servlet container.
func serverOf(j *jar, f Framework) string {
	if f != SpringBoot {
		return ""
	}
	for _, s := range []struct{ name, lib, class string }{
		{Tomcat, "tomcat-embed-core-", "org/apache/catalina/startup/Tomcat.class"},
		{Jetty, "jetty-server-", "org/eclipse/jetty/server/Server.class"},
		{Undertow, "undertow-core-", "io/undertow/Undertow.class"},
		{ReactorNetty, "reactor-netty-http-", "reactor/netty/http/server/HttpServer.class"},
	} {
		if j.lib(s.lib) != "" || j.entries[s.class] {
			return s.name
		}
	}
	return ""
}

// SystemProperty is the knob set to v as a JVM option.
func (k Knob) SystemProperty(v int) string { return "-D" + k.Property + "=" + strconv.Itoa(v) }
