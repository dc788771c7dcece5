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
}

// Service is another process the app needs; its kind-specific handling
// lives in internal/service.
type Service struct {
	Name   string
	Kind   string
	Memory int64
	CPUs   float64
}

// DefaultReadyTimeout applies when a descriptor sets none.
const DefaultReadyTimeout = 90 * time.Second
