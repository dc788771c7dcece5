package experiment

// The backends a Session's trials run through are chosen here, below cmd:
// local cgroups are trial's own (internal/sandbox); an image app runs
// through the container backend (Docker, Podman), which registers itself
// with trial when linked; Kubernetes replaces the Session's Run
// (kube.Open).
import _ "github.com/jvmfit/jvmfit/internal/backend/container"
