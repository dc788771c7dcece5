package kube

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TaskEnv is the agent container's variable that carries its Task as JSON.
const TaskEnv = "JVMFIT_TASK"

// Task is what the in-pod agent needs to run one trial against the app
// container: the prepared spec and the parts of the descriptor that drive
// and judge it. The scenario travels inline; the app's command does not
// (the image's entrypoint starts it).
type Task struct {
	Spec trial.Spec `json:"spec"`
	App  TaskApp    `json:"app"`
}

// TaskApp is the descriptor as the agent sees it.
type TaskApp struct {
	Name         string            `json:"name"`
	Port         int               `json:"port"`
	Ready        string            `json:"ready"` // URL with ${port}, e.g. http://127.0.0.1:${port}/health
	ReadyTimeout time.Duration     `json:"ready_timeout"`
	Scenario     string            `json:"scenario,omitempty"` // the scenario file's text
	Vars         map[string]string `json:"vars,omitempty"`
	SLO          string            `json:"slo,omitempty"`
	Rate         float64           `json:"rate,omitempty"`
	// Args and Env are the descriptor's, ${port} expanded, for the app
	// container (after the image's entrypoint; beside JAVA_TOOL_OPTIONS).
	Args []string          `json:"args,omitempty"`
	Env  map[string]string `json:"env,omitempty"`
}

// DefaultPort is the app's port in the pod when the descriptor picks a
// free one per trial (port: 0): a pod has its own network namespace.
const DefaultPort = 8080

// NewTask builds the Task for a prepared spec of app a, reading its
// scenario file. The app needs a fixed port: the agent reaches it on
// localhost, where no free port can be picked for it.
func NewTask(spec trial.Spec, a *app.App) (Task, error) {
	port := a.Port
	if port == 0 {
		port = DefaultPort
	}
	sub := func(v string) string { return strings.ReplaceAll(v, "${port}", strconv.Itoa(port)) }
	if len(a.Services) > 0 {
		return Task{}, fmt.Errorf("app %s: services (%s) are not supported by the Kubernetes backend yet; run it with --backend local", a.Name, a.Services[0].Name)
	}
	if a.UsesVar(app.ManagementPortVar) {
		return Task{}, fmt.Errorf("app %s: %s (a second port for its health endpoints) is not wired by the Kubernetes backend yet; run it with --backend local", a.Name, app.ManagementPortVar)
	}
	t := Task{Spec: spec, App: TaskApp{Name: a.Name, Port: port, Ready: a.Ready, ReadyTimeout: a.ReadyTimeout,
		Vars: a.Vars, SLO: a.SLO, Rate: a.Rate}}
	for _, v := range a.Args {
		t.App.Args = append(t.App.Args, sub(v))
	}
	for k, v := range a.Env {
		if t.App.Env == nil {
			t.App.Env = map[string]string{}
		}
		t.App.Env[k] = sub(v)
	}
	if a.Scenario != "" {
		b, err := os.ReadFile(a.Scenario)
		if err != nil {
			return Task{}, fmt.Errorf("reading the scenario for the pod: %w", err)
		}
		t.App.Scenario = string(b)
	}
	return t, nil
}

// Encode is the Task as the agent's environment variable holds it.
func (t Task) Encode() (string, error) {
	b, err := json.Marshal(t)
	return string(b), err
}

// DecodeTask reads a Task from its variable's value.
func DecodeTask(s string) (Task, error) {
	var t Task
	if s == "" {
		return t, fmt.Errorf("%s is empty: the agent runs inside a jvmfit trial pod only", TaskEnv)
	}
	if err := json.Unmarshal([]byte(s), &t); err != nil {
		return t, fmt.Errorf("%s: %w", TaskEnv, err)
	}
	return t, nil
}

// appIn rebuilds the descriptor inside the pod, the scenario written to
// dir. Command is a placeholder: the agent's sandbox attaches to the app
// container's JVM instead of starting one.
func (t Task) appIn(dir string) (*app.App, error) {
	a := &app.App{Name: t.App.Name, Port: t.App.Port, Ready: t.App.Ready, ReadyTimeout: t.App.ReadyTimeout,
		Vars: t.App.Vars, SLO: t.App.SLO, Rate: t.App.Rate, Command: []string{"app-container"}, Dir: dir}
	if a.ReadyTimeout <= 0 {
		a.ReadyTimeout = app.DefaultReadyTimeout
	}
	if t.App.Scenario != "" {
		a.Scenario = filepath.Join(dir, "scenario.yaml")
		if err := os.WriteFile(a.Scenario, []byte(t.App.Scenario), 0o644); err != nil {
			return nil, fmt.Errorf("writing the scenario: %w", err)
		}
	}
	return a, nil
}
