// Package app reads app descriptors (docs/app.md): how to start a Java
// service, when it is ready, how to load it and what counts as OK. It also
// builds a descriptor for a bare jar, and reads option-set files.
package app

import (
	"time"
)

// App is a validated descriptor. Paths are absolute (resolved against the
// descriptor's directory); ${...} placeholders are kept for Expand.
type App struct {
	Name         string
	File         string // descriptor path, "" for a descriptor built from flags
	Dir          string // working directory of the app
	Jar          string
	Java         string // java binary the descriptor names (java:), "" if none
	MainClass    string
	Classpath    string
	Command      []string
	Args         []string
	Env          map[string]string
	Port         int // 0 = a free loopback port per trial
	Ready        string
	ReadyTimeout time.Duration
	Scenario     string
	Vars         map[string]string
	SLO          string
	Rate         float64
	JVMOptions   []string
	OptionSets   string // path of the option-sets file, "" if none
	Services     []Service
	// Image is the container image that runs the app (image: NAME[:TAG]),
	// in place of Jar, MainClass or Command; Container says how. Both are
	// left out of the JSON when empty, so that the digest of a descriptor
	// without them (the trial's key) is what it was before they existed.
	Image     string     `json:",omitempty"`
	Container *Container `json:",omitempty"`
	// PidsLimit is the descriptor's pids_limit: how many tasks (threads
	// included) the app's cgroup or container may hold; 0 = the default
	// (cgroup.DefaultPids). Out of the JSON when unset, as Image is.
	PidsLimit int64 `json:",omitempty"`

	// Placement is the descriptor's placement: "separate" puts the app's
	// CPUs apart from the load generator's and the services' when the host
	// has enough (docs/services.md); "" shares them all. Out of the JSON
	// when unset, as Image is.
	Placement string `json:",omitempty"`
}

// Service is another process the app needs; its kind-specific handling
// lives in internal/service. The kind-specific fields are left out of the
// JSON when empty, so a postgres service's digest is what it was.
type Service struct {
	Name   string
	Kind   string
	Memory int64
	CPUs   float64
	// kind http: the bytes of every response and the delay before it
	// (upstream.ParseLatency's form, e.g. "exponential 200us").
	ResponseBytes int64  `json:",omitempty"`
	Latency       string `json:",omitempty"`
	// kind command: the argv (${port} is the service's own port), its
	// environment, and when it is ready: an http:// URL answering 2xx or
	// 3xx, or "port" for a TCP connect to ${port}.
	Command      []string          `json:",omitempty"`
	Env          map[string]string `json:",omitempty"`
	Ready        string            `json:",omitempty"`
	ReadyTimeout time.Duration     `json:",omitempty"`
	// Dir is the descriptor's directory, where a command runs.
	Dir string `json:"-"`
}

// ExportNames are the variables a service exports, each as ${NAME_var}.
func (s Service) ExportNames() []string {
	if s.Kind == "postgres" {
		return []string{"port", "url", "user", "password", "host"}
	}
	return []string{"port", "url", "host"}
}

// DefaultReadyTimeout applies when a descriptor sets none.
const DefaultReadyTimeout = 90 * time.Second
