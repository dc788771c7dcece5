package detect

import (
	"fmt"
	"strings"
)

// managementBase is where a trial reaches a health endpoint that has a
// port of its own.
const managementBase = "http://127.0.0.1:" + ManagementPortVar

// applyPaths reads the app's configuration and moves its readiness URL
// and sample path where the app put them; it changes nothing the app does
// not set. The framework's known alternatives are kept for the check.
func applyPaths(j *jar, r *Result) {
	c := readConfig(j, r.Framework)
	r.Paths.Ignored = append(r.Paths.Ignored, c.Ignored...)
	s := &settings{c: c, read: map[string]bool{}, p: &r.Paths}
	found := !readyGuessed(r.Guessed)
	switch r.Framework {
	case SpringBoot:
		springPaths(s, &r.Wiring, found)
	case Quarkus:
		s.profile = "%prod."
		quarkusPaths(s, &r.Wiring, found)
	case Micronaut:
		micronautPaths(s, &r.Wiring, found)
	case Helidon:
		helidonPaths(s, &r.Wiring, found, j.lib("helidon-microprofile-") != "")
	}
}

func readyGuessed(guessed []string) bool {
	for _, g := range guessed {
		if strings.HasPrefix(g, "the readiness URL") {
			return true
		}
	}
	return false
}

// setReady places the health endpoint: on the app's port under its path,
// or on a port of its own (${management_port}), where the sample GET goes
// by its full URL since the scenario's base is the app's port.
func setReady(w *Wiring, p *AppPaths, ready, sample string, ownPort bool) {
	w.Ready, w.Sample = ready, sample
	p.ManagementPort = ownPort
	if ownPort {
		w.Sample = managementBase + sample
	}
}

// springPaths: server.servlet.context-path (or WebFlux's
// spring.webflux.base-path) prefixes the app's paths and, on the same
// port, actuator's; management.endpoints.web.base-path replaces
// /actuator; management.server.port other than server.port puts actuator
// on its own port, under management.server.base-path and not the context
// path; -1 turns its HTTP off.
func springPaths(s *settings, w *Wiring, found bool) {
	ctx := s.context("server.servlet.context-path", "spring.webflux.base-path")
	base := s.prefixOr("management.endpoints.web.base-path", "/actuator")
	own, mport := s.ownPort("management.server.port", "server.port")
	if !found {
		return
	}
	if own && mport == "-1" {
		w.Ready, w.Sample = "/", "/"
		w.Guessed = append(w.Guessed, "the readiness URL: management.server.port=-1 turns actuator's HTTP endpoints off; set ready: to a URL that answers 2xx once the app serves")
		return
	}
	mctx := ctx
	if own {
		mctx = ""
		for _, k := range []string{"management.server.base-path", "management.server.servlet.context-path"} {
			if v, ok := s.get(k); ok {
				mctx = prefix(v)
				break
			}
		}
		w.Args = append(w.Args, "--management.server.port="+ManagementPortVar)
	}
	health := mctx + base + "/health"
	setReady(w, s.p, health, health, own)
	var cands []string
	for _, pre := range []string{mctx, ctx, ""} {
		for _, b := range []string{base, "/actuator", "", "/manage", "/management", "/admin"} {
			cands = append(cands, pre+b+"/health")
		}
	}
	s.p.Alternatives = alternatives(health, cands...)
}

// quarkusPaths: quarkus.http.root-path prefixes the application's paths;
// quarkus.http.non-application-root-path (default "q", under the root
// path unless absolute) holds /health; with quarkus.management.enabled the
// health endpoints move to the management interface's own port, under
// quarkus.management.root-path (default /q).
func quarkusPaths(s *settings, w *Wiring, found bool) {
	root := ""
	if v, ok := s.get("quarkus.http.root-path"); ok {
		root = prefix(v)
		s.p.Context, s.p.ContextKey = root, s.where("quarkus.http.root-path")
	}
	nonApp := "q"
	if v, ok := s.get("quarkus.http.non-application-root-path"); ok {
		nonApp = v
	}
	healthRel := "health"
	if v, ok := s.get("quarkus.smallrye-health.root-path"); ok {
		healthRel = v
	}
	enabled, _ := s.get("quarkus.management.enabled")
	own := strings.EqualFold(enabled, "true")
	if own {
		s.get("quarkus.management.port") // shown: the trial replaces it
	}
	if !found {
		return
	}
	var health string
	if own {
		mroot := "/q"
		if v, ok := s.get("quarkus.management.root-path"); ok {
			mroot = v
		}
		health = under(mroot, healthRel)
		w.Env["QUARKUS_MANAGEMENT_PORT"] = ManagementPortVar
	} else {
		health = under(under(root, nonApp), healthRel)
	}
	setReady(w, s.p, health+"/ready", health, own)
	s.p.Alternatives = alternatives(w.Ready, "/q/health/ready", root+"/q/health/ready", "/health/ready", root+"/health/ready", health, "/q/health")
}

// micronautPaths: micronaut.server.context-path prefixes the app's paths;
// endpoints.all.path (default /) prefixes the management endpoints, and
// endpoints.all.port other than micronaut.server.port gives them their
// own port.
func micronautPaths(s *settings, w *Wiring, found bool) {
	ctx := s.context("micronaut.server.context-path")
	epath := s.prefixOr("endpoints.all.path", "")
	own, _ := s.ownPort("endpoints.all.port", "micronaut.server.port")
	if !found {
		return
	}
	health := ctx + epath + "/health"
	if own {
		health = epath + "/health"
		w.Env["ENDPOINTS_ALL_PORT"] = ManagementPortVar
	}
	setReady(w, s.p, health, health, own)
	s.p.Alternatives = alternatives(health, ctx+epath+"/health", epath+"/health", ctx+"/health", "/health")
}

// helidonPaths: Helidon SE 4's observe feature answers under
// server.features.observe.endpoint (default /observe); listed on a named
// socket (server.features.observe.sockets) it moves to that socket's port,
// server.sockets[i].port, which Helidon's configuration reads from
// SERVER_SOCKETS_<i>_PORT. Helidon MP keeps /health on the server's port.
func helidonPaths(s *settings, w *Wiring, found, mp bool) {
	if !found || mp {
		return
	}
	endpoint := "/observe"
	if v, ok := s.get("server.features.observe.endpoint"); ok {
		endpoint = prefix(v)
	}
	socket, _ := s.get("server.features.observe.sockets[0]")
	own := false
	if socket != "" && socket != "@default" {
		for i := 0; i < 16; i++ {
			name, ok := s.get(fmt.Sprintf("server.sockets[%d].name", i))
			if !ok {
				break
			}
			if name == socket {
				s.get(fmt.Sprintf("server.sockets[%d].port", i))
				w.Env[fmt.Sprintf("SERVER_SOCKETS_%d_PORT", i)] = ManagementPortVar
				own = true
				break
			}
		}
	}
	health := endpoint + "/health"
	setReady(w, s.p, health, health, own)
	s.p.Alternatives = alternatives(health, "/observe/health", "/health", endpoint+"/health/ready")
}
