package app

import (
	"strconv"
	"strings"
	"testing"
)

// ${management_port}: a second free port, other than ${port}, in args,
// env and ready; the load still goes to ${port}.
func TestManagementPortIsASecondPort(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte(`
jar: app.jar
args: ["--server.port=${port}", "--management.server.port=${management_port}"]
env: {QUARKUS_MANAGEMENT_PORT: "${management_port}"}
ready: http://127.0.0.1:${management_port}/manage/health
`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Expand(Values{Java: "java"})
	if err != nil {
		t.Fatal(err)
	}
	mp := strconv.Itoa(l.ManagementPort)
	if l.ManagementPort == 0 || l.ManagementPort == l.Port {
		t.Fatalf("ports %d and %d", l.Port, l.ManagementPort)
	}
	if !strings.HasSuffix(strings.Join(l.Argv, " "), "--server.port="+strconv.Itoa(l.Port)+" --management.server.port="+mp) ||
		l.Ready != "http://127.0.0.1:"+mp+"/manage/health" || l.Base != "http://127.0.0.1:"+strconv.Itoa(l.Port) ||
		!strings.Contains(strings.Join(l.Set, " "), "QUARKUS_MANAGEMENT_PORT="+mp) {
		t.Errorf("%+v", l)
	}
}

// Without it no second port is taken, and the base is the ready URL's.
func TestNoManagementPortWhenUnused(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte("jar: app.jar\nport: 8123\nready: http://127.0.0.1:${port}/health\n"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Expand(Values{Java: "java"})
	if err != nil || l.ManagementPort != 0 || l.Base != "http://127.0.0.1:8123" {
		t.Errorf("%+v %v", l, err)
	}
	if _, err := Parse("/x/app.yaml", []byte("jar: app.jar\nready: http://127.0.0.1:${mgmt_port}/health\n")); err == nil ||
		!strings.Contains(err.Error(), "${management_port}") {
		t.Errorf("unknown variable: %v", err)
	}
}
