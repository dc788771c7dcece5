package detect

import (
	"io"
	"strings"
)

// The JDK's own HTTP server: a plain service's tell-tale.
const jdkHTTPServer = "com/sun/net/httpserver/HttpServer"

// Bounds on reading a jar's own classes (a plain jar is small).
const (
	maxClasses   = 4000
	maxClassSize = 1 << 20
)

// code is what the jar's own classes say: which one starts the JDK's HTTP
// server, and the string literals in them (paths, option names).
type code struct {
	httpServerClass string
	literals        map[string]bool
}

func (j *jar) code() *code {
	if j.scanned != nil {
		return j.scanned
	}
	c := &code{literals: map[string]bool{}}
	n := 0
	for _, e := range j.list {
		if !strings.HasSuffix(e.name, ".class") || strings.HasPrefix(e.name, "META-INF/") || e.size > maxClassSize {
			continue
		}
		if n++; n > maxClasses {
			break
		}
		f, err := j.files.Open(e.name)
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, maxClassSize))
		f.Close()
		if err != nil {
			continue
		}
		k, err := readConstants(b)
		if err != nil {
			continue
		}
		for _, s := range k.utf8 {
			if c.httpServerClass == "" && strings.Contains(s, jdkHTTPServer) {
				c.httpServerClass = strings.TrimSuffix(e.name, ".class")
			}
		}
		for _, s := range k.strings {
			c.literals[s] = true
		}
	}
	j.scanned = c
	return c
}

func plainMatch(j *jar) (string, bool) {
	if cls := j.code().httpServerClass; cls != "" {
		return strings.ReplaceAll(cls, "/", ".") + " uses the JDK's HTTP server (com.sun.net.httpserver)", true
	}
	return "", false
}

// Readiness paths a plain service commonly serves, in order of preference.
var plainReady = []string{"/health/ready", "/ready", "/readyz", "/health", "/healthz", "/status", "/ping"}

// plainWiring reads the port option and a health path from the code's
// string literals; what it cannot find it guesses, and says so.
func plainWiring(j *jar) Wiring {
	lits := j.code().literals
	var w Wiring
	switch {
	case hasLiteralPrefix(lits, "--port"):
		w.Args = []string{"--port=${port}"}
	case lits["PORT"]:
		w.Env = map[string]string{"PORT": "${port}"}
	default:
		w.Port = 8080
		w.Guessed = append(w.Guessed, "the port: no --port option or PORT variable found in the code, so the app is taken to keep its own port, 8080; if it takes one, pass ${port} in args or env and set port: 0")
	}
	for _, p := range plainReady {
		if lits[p] {
			w.Ready, w.ReadyStatus, w.Sample = p, 200, p
			return w
		}
	}
	guessedReady(&w, "no health path ("+strings.Join(plainReady, ", ")+") found in the code")
	return w
}

func hasLiteralPrefix(lits map[string]bool, p string) bool {
	for s := range lits {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
