package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/detect"
)

// guessMark starts the comment of every line that holds a guess.
const guessMark = "GUESS: "

// appYAML renders app.yaml (docs/app.md), with a comment on each line
// saying where its value comes from.
func appYAML(in Input) (string, error) {
	r := in.Found
	var b strings.Builder
	line := func(field, value, comment string) {
		if comment != "" {
			fmt.Fprintf(&b, "%-48s # %s\n", field+": "+value, comment)
			return
		}
		fmt.Fprintf(&b, "%s: %s\n", field, value)
	}
	fmt.Fprintf(&b, "# Written by `jvmfit init` for %s (docs/your-service.md; every field: docs/app.md).\n", source(in))
	fmt.Fprintf(&b, "# Detected: %s.\n", Describe(r))
	if len(r.Guessed) > 0 {
		b.WriteString("# Lines marked GUESS were not found in the app: check them.\n")
	}
	for _, k := range r.Paths.Read {
		fmt.Fprintf(&b, "# Read from the jar: %s.\n", k)
	}
	for _, k := range r.Paths.Ignored {
		fmt.Fprintf(&b, "# Ignored (the framework's defaults stand): %s.\n", k)
	}
	line("name", quote(in.Name), "")
	switch {
	case in.Image != "":
		line("image", quote(in.Image), "")
	case len(in.Command) > 0:
		argv, err := commandIn(in.Dir, in.Command)
		if err != nil {
			return "", err
		}
		line("command", list(argv), "${jvm_options}: the JVM options a trial gives")
	default:
		jar, err := relTo(in.Dir, in.Jar)
		if err != nil {
			return "", err
		}
		where := "relative to this file"
		if filepath.IsAbs(jar) {
			where = ""
		}
		line("jar", quote(jar), where)
	}
	if in.Java != "" {
		line("java", quote(in.Java), in.JavaWhy)
	}
	args := append(append([]string{}, r.Args...), in.Args...)
	if len(args) > 0 {
		line("args", list(args), argsComment(r, len(in.Args) > 0))
	}
	env := map[string]string{}
	for k, v := range r.Env {
		env[k] = v
	}
	for k, v := range in.Env {
		env[k] = v
	}
	if len(env) > 0 {
		line("env", envMap(env), envComment(r))
	}
	if r.Port != 0 {
		line("port", fmt.Sprint(r.Port), guessMark+portGuess(r))
	} else {
		line("port", "0", "a free loopback port per trial, given to the app as ${port}")
	}
	path, guessed := in.ReadyPath()
	readyNote := readyComment(r, path)
	if guessed {
		readyNote = guessMark + "no health endpoint found; set a URL that answers 2xx once the app serves"
	}
	if !guessed && in.readyOnManagementPort() {
		readyNote += "; on the management port, a second free port per trial"
	}
	line("ready", quote(in.ReadyURL()), readyNote)
	line("ready_timeout", seconds(in.ReadyTimeout), "not ready by then: KO not-ready")
	line("scenario", "scenario.yaml", "the load: "+strings.Join(in.Paths(), ", "))
	line("rate", fmt.Sprint(in.Rate), "req/s of the measured phase")
	line("slo", quote(in.SLO), "all must hold for OK")
	return b.String(), nil
}

// Describe is the detection in words: "Spring Boot 3.5.16 (manifest
// Spring-Boot-Version 3.5.16)".
func Describe(r *detect.Result) string {
	s := FrameworkName(r.Framework)
	if r.Version != "" {
		s += " " + r.Version
	}
	if r.Evidence != "" {
		s += " (" + r.Evidence + ")"
	}
	return s
}

// FrameworkName is a framework as people write it.
func FrameworkName(f detect.Framework) string {
	switch f {
	case detect.SpringBoot:
		return "Spring Boot"
	case detect.Quarkus:
		return "Quarkus"
	case detect.Micronaut:
		return "Micronaut"
	case detect.Helidon:
		return "Helidon"
	case detect.Plain:
		return "a plain main class on the JDK's HTTP server"
	}
	return "no framework jvmfit knows"
}

func source(in Input) string {
	switch {
	case in.Image != "":
		return "image " + in.Image
	case len(in.Command) > 0:
		return "the command " + strings.Join(in.Command, " ")
	}
	return in.Jar
}

func argsComment(r *detect.Result, users bool) string {
	var s string
	switch {
	case len(r.Args) == 0:
		return "yours"
	case r.Framework == detect.SpringBoot && r.Paths.ManagementPort:
		s = "Spring Boot takes its ports as --server.port and --management.server.port"
	case r.Framework == detect.SpringBoot:
		s = "Spring Boot takes its port as --server.port"
	case r.Framework == detect.Plain:
		s = "the code reads a --port option"
	default:
		s = "the port"
	}
	if users {
		s += ", then yours"
	}
	return s
}

func envComment(r *detect.Result) string {
	switch r.Framework {
	case detect.Quarkus:
		if r.Paths.ManagementPort {
			return "Quarkus reads its ports from QUARKUS_HTTP_PORT and QUARKUS_MANAGEMENT_PORT"
		}
		return "Quarkus reads its port from QUARKUS_HTTP_PORT"
	case detect.Micronaut:
		return "Micronaut reads its port from MICRONAUT_SERVER_PORT"
	case detect.Helidon:
		return "Helidon's config reads SERVER_PORT as server.port"
	case detect.Plain:
		if _, ok := r.Env["PORT"]; ok {
			return "the code reads a PORT variable"
		}
	}
	return "yours"
}

func portGuess(r *detect.Result) string {
	return "the app's own port (none could be passed); if it takes one, pass ${port} in args or env and set port: 0"
}

func readyComment(r *detect.Result, path string) string {
	if r.Ready != path {
		return "your first --get (no health endpoint found)"
	}
	if r.ReadyStatus == 204 {
		return "answers 204 No Content when up"
	}
	if r.Paths.Context != "" && !r.Paths.ManagementPort {
		return "answers 200 when up; under the context path " + r.Paths.Context
	}
	return "answers 200 when up"
}

// command makes a command line's java the trial's (${java}, then the
// trial's ${jvm_options}) when it is a plain "java"; a java named by path
// is kept, and jvmfit plans for it.
func command(argv []string) []string {
	out := []string{argv[0]}
	if argv[0] == "java" {
		out[0] = "${java}"
	}
	out = append(out, "${jvm_options}")
	return append(out, argv[1:]...)
}

// commandIn is command(argv) with its -jar made relative to dir, where the
// descriptor is, as the app runs from there.
func commandIn(dir string, argv []string) ([]string, error) {
	out := command(argv)
	for i := range out {
		if out[i] == "-jar" && i+1 < len(out) && !filepath.IsAbs(out[i+1]) {
			rel, err := relTo(dir, out[i+1])
			if err != nil {
				return nil, err
			}
			out[i+1] = rel
		}
	}
	// The port wiring's arguments follow the command's own.
	return out, nil
}

func relTo(dir, file string) (string, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	absFile, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absDir, absFile)
	// Relative while the two are near (the project's own tree), so the
	// files move with it; absolute when they only share the root.
	if err != nil || strings.Count(rel, "..") > 1 {
		return absFile, nil
	}
	return rel, nil
}

// quote writes s as a YAML double-quoted scalar (JSON's escapes are
// YAML's), with <, > and & as they are.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// seconds writes a duration as YAML's descriptors take it, "90s".
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return d.String()
}

func list(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func envMap(env map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(env) {
		parts = append(parts, k+": "+quote(env[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
