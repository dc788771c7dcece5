// Package detect looks inside a Java service's jar and says which framework
// it is built on (Spring Boot, Quarkus, Micronaut, Helidon, or a plain main
// class on the JDK's HTTP server), how that framework is told its port, and
// which URL answers when it is ready. jvmfit init writes app.yaml from it.
//
// It reads files only: nothing is run. The jar is read through an fs.FS
// rooted at the jar's directory, so the same rules apply to a jar on the
// host and to one inside an unpacked image.
package detect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// Framework names what a jar is built on.
type Framework string

const (
	SpringBoot Framework = "spring-boot"
	Quarkus    Framework = "quarkus"
	Micronaut  Framework = "micronaut"
	Helidon    Framework = "helidon"
	// Plain is a main class serving HTTP with the JDK's own server
	// (com.sun.net.httpserver), no framework.
	Plain Framework = "plain"
	// Unknown is a runnable jar whose HTTP server was not recognised.
	Unknown Framework = "unknown"
)

// Result is what the jar says about itself, with the wiring jvmfit needs.
type Result struct {
	Framework Framework
	Version   string // the framework's version, "" when the jar does not say
	Jar       string // the jar to run, as given
	MainClass string // the manifest's Main-Class
	// Evidence is what gave the framework away, for the user to check.
	Evidence string
	// JavaVersion is the Java feature version the app's main class is
	// compiled for (21 for class file 65); 0 when unknown.
	JavaVersion int
	// Server is a Spring Boot jar's embedded web server (Tomcat, Jetty,
	// Undertow, Reactor Netty), "" for other frameworks (pools.go).
	Server string
	Wiring
	// Paths are what the app's own configuration moves (paths.go).
	Paths AppPaths
}

// Wiring is how the app is told its port and how it says it is ready.
// ${port} in Args and Env is the per-trial port (app.yaml's placeholder).
type Wiring struct {
	Args []string
	Env  map[string]string
	// Port is the app's own fixed port when it cannot be told one (0 when
	// Args or Env carry ${port}).
	Port int
	// Ready is the readiness path; ReadyStatus the status it answers when
	// up (Helidon's observe health answers 204 No Content).
	Ready       string
	ReadyStatus int
	// Sample is a GET path that answers out of the box: the framework's
	// own health or info endpoint, for a first scenario.
	Sample string
	// Guessed lists what was guessed rather than found, one line each;
	// app.yaml marks those lines.
	Guessed []string
}

// InputError is a jar that cannot be detected at all: not a file, not a
// zip, no Main-Class. Its message is one line saying what to give instead.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

func inputErr(format string, a ...any) error { return &InputError{fmt.Sprintf(format, a...)} }

// IsInputError says whether err is the user's input, not a failure to read.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Jar detects the framework of the jar at file, on this machine.
func Jar(file string) (*Result, error) {
	fi, err := os.Stat(file)
	switch {
	case err != nil:
		return nil, inputErr("%s does not exist: give the application's jar", file)
	case fi.IsDir():
		return nil, inputErr("%s is a directory: give the application's jar (for Quarkus, quarkus-app/quarkus-run.jar)", file)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	r, err := FS(os.DirFS(filepath.Dir(abs)), filepath.Base(abs))
	if r != nil {
		r.Jar = file
	}
	return r, err
}

// FS detects the framework of the jar at name inside fsys; files the jar
// refers to (its manifest's Class-Path, Quarkus's lib/) are looked up
// beside it in fsys.
func FS(fsys fs.FS, name string) (*Result, error) {
	j, err := openJar(fsys, name)
	if err != nil {
		return nil, err
	}
	defer j.close()
	return detectIn(j)
}

// Dir detects the framework of a jar unpacked into dir inside fsys, as a
// buildpack leaves a Spring Boot jar in an image's /workspace.
func Dir(fsys fs.FS, dir string) (*Result, error) {
	j, err := openDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	return detectIn(j)
}

func detectIn(j *jar) (*Result, error) {
	if j.mainClass == "" {
		return nil, inputErr("%s has no Main-Class in its manifest: give the runnable jar your build makes (Spring Boot's repackaged jar, Quarkus's quarkus-app/quarkus-run.jar, a shaded jar)", path.Base(j.name))
	}
	r := &Result{Jar: j.name, MainClass: j.mainClass, JavaVersion: j.javaVersion()}
	for _, rule := range rules {
		if ev, ok := rule.match(j); ok {
			if err := runnable(j, rule.framework); err != nil {
				return nil, err
			}
			r.Framework, r.Evidence = rule.framework, ev
			r.Version = rule.version(j)
			r.Wiring = rule.wiring(j)
			r.Server = serverOf(j, rule.framework)
			applyPaths(j, r)
			return r, nil
		}
	}
	r.Framework = Unknown
	r.Evidence = "Main-Class " + j.mainClass + ", no framework and no JDK HTTP server found"
	r.Wiring = plainWiring(j)
	r.Guessed = append([]string{"the framework: none recognised, so the port and readiness below are guesses"}, r.Guessed...)
	return r, nil
}

// runnable refuses a jar that cannot start as it is: Quarkus's
// quarkus-run.jar copied without the lib/ directory it loads everything from.
func runnable(j *jar, f Framework) error {
	if f == Quarkus && j.mainClass == quarkusMain && j.lib("io.quarkus.") == "" && !j.hasPrefix("io/quarkus/runtime/") {
		return inputErr("%s is Quarkus's launcher without the lib/ directory beside it: give quarkus-app/quarkus-run.jar inside the whole quarkus-app directory", path.Base(j.name))
	}
	return nil
}

// Guess is the result for an app whose files could not be read (a command
// without -jar, an image): no framework, every wiring guessed.
func Guess(why string) *Result {
	w := Wiring{Port: 8080}
	w.Guessed = []string{
		"the framework: " + why + ", so the port and readiness below are guesses",
		"the port: the app is taken to keep its own port, 8080; if it takes one, pass ${port} in args or env and set port: 0",
	}
	guessedReady(&w, "nothing was read from the app")
	return &Result{Framework: Unknown, Evidence: why, Wiring: w}
}
