package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/upstream"
)

// Service kinds a descriptor may declare (internal/service runs them).
const (
	ServicePostgres = "postgres"
	ServiceHTTP     = "http"
	ServiceCommand  = "command"
)

// Placements (placement:).
const (
	PlacementShared   = ""
	PlacementSeparate = "separate"
)

// parseServices reads the services the app needs, each with its limits
// and its kind's fields; a field of another kind is refused.
func parseServices(a *App, r *raw) error {
	switch r.Placement {
	case PlacementShared, "shared":
	case PlacementSeparate:
		a.Placement = PlacementSeparate
	default:
		return fieldError("placement", "%q: write separate (the app's CPUs apart from the load generator's and the services') or shared", r.Placement)
	}
	seen := map[string]bool{}
	for i, s := range r.Services {
		field := fmt.Sprintf("services[%d]", i)
		if s.Name == "" || s.Kind == "" {
			return fieldError(field, "needs a name and a kind (e.g. name: db, kind: postgres)")
		}
		if !serviceName(s.Name) {
			return fieldError(field+".name", "%q: use letters, digits and _ (it names ${%s_port})", s.Name, s.Name)
		}
		if seen[s.Name] {
			return fieldError(field+".name", "%q is declared twice", s.Name)
		}
		seen[s.Name] = true
		svc := Service{Name: s.Name, Kind: s.Kind, Dir: a.Dir}
		if s.Memory != nil {
			m, err := size.Parse(s.Memory.Value)
			if err != nil {
				return fieldError(field+".memory", "%v", err)
			}
			svc.Memory = m
		}
		if s.CPUs != nil {
			c, ok := positiveNumber(s.CPUs.Value)
			if !ok {
				return fieldError(field+".cpus", "%q is not a positive number of CPUs", s.CPUs.Value)
			}
			svc.CPUs = c
		}
		if err := parseServiceKind(&svc, s, field); err != nil {
			return err
		}
		a.Services = append(a.Services, svc)
	}
	return nil
}

func parseServiceKind(svc *Service, s rawService, field string) error {
	http := s.ResponseSize != nil || s.Latency != ""
	command := len(s.Command) > 0 || s.Env != nil || s.Ready != "" || s.ReadyTimeout != nil
	switch s.Kind {
	case ServicePostgres:
		if http || command {
			return fieldError(field, "kind postgres takes only name, memory and cpus")
		}
	case ServiceHTTP:
		if command {
			return fieldError(field, "kind http takes response_size and latency, not command, env or ready (those are kind command's)")
		}
		if s.ResponseSize != nil {
			n, err := size.Parse(s.ResponseSize.Value)
			if err != nil {
				return fieldError(field+".response_size", "%v", err)
			}
			svc.ResponseBytes = n
		}
		l, err := upstream.ParseLatency(s.Latency)
		if err != nil {
			return fieldError(field+".latency", "%v", err)
		}
		svc.Latency = l.String()
	case ServiceCommand:
		if http {
			return fieldError(field, "kind command takes command, env, ready and ready_timeout, not response_size or latency (those are kind http's)")
		}
		if len(s.Command) == 0 {
			return fieldError(field+".command", "missing: give the argv, e.g. [java, -jar, auth.jar, --port=${port}]")
		}
		svc.Command, svc.Env, svc.Ready = s.Command, s.Env, s.Ready
		if svc.Ready == "" {
			svc.Ready = "port"
		}
		if svc.Ready != "port" && !strings.HasPrefix(svc.Ready, "http://") {
			return fieldError(field+".ready", "%q: give an http:// URL (e.g. http://127.0.0.1:${port}/health) or port", svc.Ready)
		}
		if s.ReadyTimeout != nil {
			d, err := time.ParseDuration(s.ReadyTimeout.Value)
			if err != nil || d <= 0 {
				return fieldError(field+".ready_timeout", "%q is not a positive duration (e.g. 30s)", s.ReadyTimeout.Value)
			}
			svc.ReadyTimeout = d
		}
		if err := checkServicePlaceholders(field, *svc); err != nil {
			return err
		}
	default:
		return fieldError(field+".kind", "unknown kind %q (known: postgres, http, command)", s.Kind)
	}
	return nil
}

// checkServicePlaceholders allows a command only its own ${port}.
func checkServicePlaceholders(field string, s Service) error {
	check := func(f, v string) error {
		for _, m := range placeholder().FindAllStringSubmatch(v, -1) {
			if m[1] != "port" {
				return fieldError(f, "unknown variable ${%s} in %q (a command service knows only ${port}, its own port)", m[1], v)
			}
		}
		return nil
	}
	for i, c := range s.Command {
		if err := check(fmt.Sprintf("%s.command[%d]", field, i), c); err != nil {
			return err
		}
	}
	for k, v := range s.Env {
		if err := check(field+".env."+k, v); err != nil {
			return err
		}
	}
	return check(field+".ready", s.Ready)
}

func serviceName(n string) bool {
	for i, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return n != ""
}
