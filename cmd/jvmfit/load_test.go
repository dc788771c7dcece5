package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func execLoad(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"load"}, args...))
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

func TestLoadBadInputIsUsageError(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	malformed := write("bad.yaml", "requests: [a\n")
	unknownVar := write("var.yaml", "base: http://127.0.0.1:1\nrequests: {a: {url: '/x/${nope}'}}\nphases: [{requests: 1}]\n")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/"
	l.Close()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", malformed}, "bad YAML"},
		{[]string{"--scenario", unknownVar}, "unknown variable ${nope}"},
		{[]string{"--rate", "0", "http://127.0.0.1:1/"}, "--rate must be > 0"},
		{[]string{"--rate", "-3", "http://127.0.0.1:1/"}, "--rate must be > 0"},
		{[]string{"--rate", "10", closed}, "unreachable"},
		{[]string{"--rate", "10", "http://10.9.8.7:80/"}, "--allow-remote"},
		{[]string{"http://127.0.0.1:1/"}, "give --rate N"},
		{[]string{}, "give a URL"},
		{[]string{"--rate", "ten", "http://127.0.0.1:1/"}, "invalid argument"},
		{[]string{"--scenario", filepath.Join(dir, "none.yaml")}, "cannot read"},
	}
	for _, c := range cases {
		_, err := execLoad(t, c.args...)
		var ue usageError
		if err == nil || !errors.As(err, &ue) {
			t.Errorf("%v: error %v, want a usage error (exit 2)", c.args, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %q, want one line containing %q", c.args, err, c.want)
		}
	}
}

func TestLoadJSONReport(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }))
	t.Cleanup(s.Close)
	hist := filepath.Join(t.TempDir(), "h.txt")
	out, err := execLoad(t, "--json", "-c", "2", "-n", "200", "--hist", hist, s.URL+"/status")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"requests", "rate", "throughput", "success", "status_codes", "errors", "latencies"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	lat := m["latencies"].(map[string]any)
	for _, k := range []string{"mean", "p50", "p90", "p95", "p99", "p999", "max"} {
		if v, ok := lat[k].(float64); !ok || v <= 0 {
			t.Errorf("latencies.%s = %v", k, lat[k])
		}
	}
	if m["requests"].(float64) != 200 || m["success"].(float64) != 1 {
		t.Errorf("requests %v success %v", m["requests"], m["success"])
	}
	h, _ := os.ReadFile(hist)
	if !strings.Contains(string(h), "Percentile") || !strings.Contains(string(h), "Total count") {
		t.Errorf("histogram file:\n%s", h)
	}
}

// The error summary of jvmfit load names what was sent where.
func TestLoadErrorsNameURL(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }))
	t.Cleanup(s.Close)
	out, err := execLoad(t, "-X", "PUT", "-c", "1", "-n", "4", s.URL+"/petclinic/owners?id=7")
	if err != nil {
		t.Fatal(err)
	}
	want := "4× PUT " + s.URL + "/petclinic/owners?id=7: unexpected status 404"
	if !strings.Contains(out, "Error Set:\n"+want+"\n") {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}
