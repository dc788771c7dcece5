package detect

import (
	"fmt"
	"regexp"
	"strings"
)

// ManagementPortVar is the placeholder of the management port a trial
// gives an app whose health endpoints have a port of their own (app.yaml's
// ${management_port}, internal/app).
const ManagementPortVar = "${management_port}"

// AppPaths is what the app's own configuration moves: the prefix of its
// application paths, and where its health endpoint is.
type AppPaths struct {
	// Context is the prefix every application path has ("/greet"), ""
	// for none; ContextKey names the key and file that set it.
	Context, ContextKey string
	// ManagementPort is true when the health endpoint has a port of its
	// own, which the trial gives as ${management_port}.
	ManagementPort bool
	// Alternatives are the framework's other usual health paths, tried
	// once when the readiness URL answers 404 (trial.Spec.ReadyAlternatives).
	Alternatives []string
	// Read are the keys that shaped the wiring, "key=value (file)".
	Read []string
	// Ignored are the files or values that could not be read, one line
	// each; the framework's defaults stand for them.
	Ignored []string
}

// settings reads keys of a Config the way one framework does: Quarkus's
// %prod. profile (the one a packaged jar runs) over the plain key, and
// ${name:default} placeholders resolved in the configuration or by their
// default.
type settings struct {
	c       *Config
	profile string // "%prod." for Quarkus
	read    map[string]bool
	p       *AppPaths
}

var placeholderRef = regexp.MustCompile(`\$\{([^}:$]*)(?::([^}$]*))?\}`)

// get is key's value, "" and false when unset (or set only from the
// environment at run time, which init does not read: said in Ignored).
func (s *settings) get(key string) (string, bool) {
	v, file, ok := "", "", false
	if s.profile != "" {
		v, file, ok = s.c.Get(s.profile + key)
	}
	if !ok {
		v, file, ok = s.c.Get(key)
	}
	if !ok {
		return "", false
	}
	resolved, unresolved := s.resolve(v, 0)
	if unresolved != "" {
		s.p.Ignored = append(s.p.Ignored, fmt.Sprintf("%s=%s (%s): ${%s} is set at run time, so the framework's default is used", key, v, file, unresolved))
		return "", false
	}
	v = strings.TrimSpace(resolved)
	if !s.read[key] {
		s.read[key] = true
		s.p.Read = append(s.p.Read, fmt.Sprintf("%s=%s (%s)", key, v, file))
	}
	return v, true
}

// resolve expands ${name} and ${name:default}; unresolved names the first
// that neither the configuration nor a default gives.
func (s *settings) resolve(v string, depth int) (string, string) {
	unresolved := ""
	// Innermost first: ${a:${b}} resolves ${b}, then ${a:...}.
	for pass := 0; pass < 8 && unresolved == "" && placeholderRef.MatchString(v); pass++ {
		v = placeholderRef.ReplaceAllStringFunc(v, func(m string) string {
			sub := placeholderRef.FindStringSubmatch(m)
			if depth < 8 {
				if ref, _, ok := s.c.Get(sub[1]); ok {
					if r, u := s.resolve(ref, depth+1); u == "" {
						return r
					}
				}
			}
			if strings.Contains(m, ":") {
				return sub[2]
			}
			if unresolved == "" {
				unresolved = sub[1]
			}
			return m
		})
	}
	return v, unresolved
}

// where is "key (file)" for a key that was read.
func (s *settings) where(key string) string {
	for _, k := range []string{s.profile + key, key} {
		if _, file, ok := s.c.Get(k); ok && k != "" {
			return k + " in " + file
		}
	}
	return key
}

// prefix normalises a path prefix: "/greet", "" for none or "/".
func prefix(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return strings.TrimRight(p, "/")
}

// under joins a relative path to a base as Quarkus does: an absolute
// path ("/health") stands alone, a relative one ("health") goes under base.
func under(base, p string) string {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "/") {
		return prefix(p)
	}
	return prefix(base) + prefix(p)
}

// alternatives are the candidates less the path already tried, unique.
func alternatives(ready string, candidates ...string) []string {
	seen := map[string]bool{ready: true}
	var out []string
	for _, c := range candidates {
		if c == "" || seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c)
	}
	return out
}

// context reads the first of keys that sets a prefix, as the app's
// context path.
func (s *settings) context(keys ...string) string {
	for _, k := range keys {
		if v, ok := s.get(k); ok && prefix(v) != "" {
			s.p.Context, s.p.ContextKey = prefix(v), s.where(k)
			return s.p.Context
		}
	}
	return ""
}

// prefixOr is key's value as a path prefix, def when unset.
func (s *settings) prefixOr(key, def string) string {
	if v, ok := s.get(key); ok {
		return prefix(v)
	}
	return def
}

// ownPort says whether the management port key names a port other than
// the app's (appKey), and returns its value.
func (s *settings) ownPort(key, appKey string) (bool, string) {
	app, _ := s.get(appKey)
	v, ok := s.get(key)
	return ok && v != "" && v != app, v
}
