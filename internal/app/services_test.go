package app

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const head = "jar: x.jar\nready: http://127.0.0.1:${port}/\n"

func TestHTTPAndCommandServicesAreRead(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "app.yaml", head+`args: ["--up=${backend_url}", "--auth=${auth_port}"]
env: {AUTH_HOST: "${auth_host}"}
placement: separate
services:
  - {name: backend, kind: http, response_size: 1Ki, latency: "uniform 100us 2ms", memory: 64Mi, cpus: 0.5}
  - name: auth
    kind: command
    command: [java, -jar, auth.jar, "--port=${port}"]
    env: {AUTH_PORT: "${port}"}
    ready: http://127.0.0.1:${port}/health
    ready_timeout: 20s
`)
	a, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if a.Placement != PlacementSeparate || len(a.Services) != 2 {
		t.Fatalf("placement %q, services %+v", a.Placement, a.Services)
	}
	b := a.Services[0]
	if b.Kind != ServiceHTTP || b.ResponseBytes != 1024 || b.Latency != "uniform 100µs 2ms" || b.Memory != 64<<20 || b.CPUs != 0.5 {
		t.Errorf("http service %+v", b)
	}
	c := a.Services[1]
	if c.Kind != ServiceCommand || !reflect.DeepEqual(c.Command, []string{"java", "-jar", "auth.jar", "--port=${port}"}) ||
		c.Env["AUTH_PORT"] != "${port}" || c.Ready != "http://127.0.0.1:${port}/health" || c.ReadyTimeout != 20*time.Second || c.Dir != filepath.Dir(p) {
		t.Errorf("command service %+v", c)
	}
	l, err := a.Expand(Values{Java: "java", Exports: map[string]string{"backend_url": "http://127.0.0.1:9", "auth_port": "7", "auth_host": "127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(l.Argv, " "); !strings.Contains(got, "--up=http://127.0.0.1:9 --auth=7") {
		t.Errorf("argv %q: the exports did not expand", got)
	}
}

func TestServiceFieldsOfTheWrongKindOrBadValuesAreOneLine(t *testing.T) {
	for _, c := range []struct{ svc, want string }{
		{"{name: b, kind: http, latency: gauss 1ms}", `services[0].latency: latency "gauss 1ms": write "fixed 1ms"`},
		{"{name: b, kind: http, latency: uniform 2ms 1ms}", "the maximum is below the minimum"},
		{"{name: b, kind: http, response_size: lots}", "services[0].response_size: bad size"},
		{"{name: b, kind: http, command: [x]}", "kind http takes response_size and latency, not command"},
		{"{name: b, kind: command}", "services[0].command: missing"},
		{"{name: b, kind: command, command: [x], latency: fixed 1ms}", "kind command takes command, env, ready and ready_timeout"},
		{"{name: b, kind: command, command: [x], ready: tcp}", `services[0].ready: "tcp": give an http:// URL`},
		{"{name: b, kind: command, command: [x, '${db_port}']}", "unknown variable ${db_port}"},
		{"{name: b, kind: postgres, latency: fixed 1ms}", "kind postgres takes only name, memory and cpus"},
		{"{name: b, kind: redis}", `services[0].kind: unknown kind "redis" (known: postgres, http, command)`},
		{"{name: my-db, kind: http}", "services[0].name: \"my-db\": use letters, digits and _"},
	} {
		p := write(t, t.TempDir(), "app.yaml", head+"services: ["+c.svc+"]\n")
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.svc, err, c.want)
		}
	}
	p := write(t, t.TempDir(), "app.yaml", head+"placement: apart\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), `placement: "apart": write separate`) {
		t.Errorf("placement: apart: %v", err)
	}
	// An http service exports no user or password.
	p = write(t, t.TempDir(), "app.yaml", head+"args: ['${b_password}']\nservices: [{name: b, kind: http}]\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "unknown variable ${b_password}") {
		t.Errorf("${b_password} of an http service: %v", err)
	}
}
