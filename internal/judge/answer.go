package judge

// Answer is what an experiment recommends, the one value every paste-ready
// form is rendered from (report.Forms): the container's limits and how its
// JVM is started. minmem, sweep and compare make it from a Recommendation,
// tune from its result.
type Answer struct {
	MemoryBytes int64
	CPUs        float64
	// JVM is the option mode that won: default, jvmfit[:goal], set:NAME or
	// the user's own options.
	JVM string
	// Options are every option the JVM gets at MemoryBytes.
	Options []string
	// UserOptions are the options jvmfit exec is given on the java command
	// line (tune's candidate); the launcher plans the rest.
	UserOptions []string
	// Profile is the measured profile file jvmfit exec is given.
	Profile string
	// AppEnv are the framework's thread-pool knobs that Options set as
	// system properties, in the environment form the framework reads
	// (QUARKUS_THREAD_POOL_MAX_THREADS=4): for a container that starts
	// the app its own way. A knob without such a form is not here.
	AppEnv map[string]string
}
