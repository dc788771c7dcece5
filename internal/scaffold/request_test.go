package scaffold

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

func request() Request {
	return Request{Rate: DefaultRate, SLO: DefaultSLO, ReadyTimeout: 90 * time.Second, Out: "."}
}

// Every input error comes out before anything is detected or written,
// one line each.
func TestRequestRefusesBadInput(t *testing.T) {
	cases := map[string]func(*Request){
		"no app":      func(*Request) {},
		"two apps":    func(r *Request) { r.Jar, r.Image = "a.jar", "img" },
		"rate 0":      func(r *Request) { r.Jar, r.Rate = "a.jar", 0 },
		"timeout 0":   func(r *Request) { r.Jar, r.ReadyTimeout = "a.jar", 0 },
		"bad slo":     func(r *Request) { r.Jar, r.SLO = "a.jar", "p99<=soon" },
		"bad get":     func(r *Request) { r.Jar, r.Gets = "a.jar", []string{"api"} },
		"bad env":     func(r *Request) { r.Command, r.Env = "java -cp x Main", []string{"NOEQUALS"} },
		"java, image": func(r *Request) { r.Image, r.Java = "img:1", "/usr/bin/java" },
	}
	for name, set := range cases {
		r := request()
		set(&r)
		_, err := r.Input(context.Background())
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line error", name, err)
		}
	}
}

// A Quarkus app's quarkus-run.jar is named after its project's folder;
// --name wins; a command's name is its -jar's.
func TestRequestNamesTheApp(t *testing.T) {
	jar, _ := filepath.Abs("../../workloads/greet-quarkus/target/quarkus-app/quarkus-run.jar")
	prereq.Built(t, jar)
	r := request()
	r.Jar = jar
	in, err := r.Input(context.Background())
	if err != nil || in.Name != "greet-quarkus" {
		t.Fatalf("name %q, %v: want the project's folder, greet-quarkus", in.Name, err)
	}
	r.Name = "shop"
	if in, err = r.Input(context.Background()); err != nil || in.Name != "shop" {
		t.Errorf("with --name: %q, %v", in.Name, err)
	}
	r = request()
	r.Command = "java -Xss1m -jar " + jar
	if in, err = r.Input(context.Background()); err != nil || in.Name != "quarkus-run" || len(in.Command) != 4 {
		t.Errorf("command: name %q, argv %q, %v", in.Name, in.Command, err)
	}
}
