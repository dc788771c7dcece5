package detect

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func springJar(t *testing.T, files map[string]string) *Result {
	t.Helper()
	e := map[string][]byte{
		"META-INF/MANIFEST.MF":                         manifest("Main-Class: org.springframework.boot.loader.launch.JarLauncher", "Spring-Boot-Version: 3.5.16"),
		"BOOT-INF/lib/spring-boot-actuator-3.5.16.jar": nil,
		"BOOT-INF/classes/com/example/App.class":       nil,
	}
	for n, c := range files {
		e[n] = []byte(c)
	}
	r, err := Jar(writeJar(t, t.TempDir(), "app.jar", e))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSpringContextPathAndManagementPort(t *testing.T) {
	for name, c := range map[string]struct {
		files              map[string]string
		ready, sample, ctx string
		own                bool
	}{
		"nothing set": {nil, "/actuator/health", "/actuator/health", "", false},
		"context path": {map[string]string{"BOOT-INF/classes/application.properties": "server.servlet.context-path=/greet/\n"},
			"/greet/actuator/health", "/greet/actuator/health", "/greet", false},
		"webflux base path and base-path in yaml": {map[string]string{
			"BOOT-INF/classes/application.yml": "spring.webflux.base-path: /flux\nmanagement:\n  endpoints:\n    web:\n      base-path: /manage\n"},
			"/flux/manage/health", "/flux/manage/health", "/flux", false},
		"own port: no context path there": {map[string]string{
			"BOOT-INF/classes/application.properties": "server.servlet.context-path=/greet\nmanagement.server.port=8081\n"},
			"/actuator/health", "http://127.0.0.1:${management_port}/actuator/health", "/greet", true},
		"own port with its base-path": {map[string]string{
			"BOOT-INF/classes/application.properties": "management.server.port: 8081\nmanagement.server.base-path /mgmt\nmanagement.endpoints.web.base-path=/\n"},
			"/mgmt/health", "http://127.0.0.1:${management_port}/mgmt/health", "", true},
		"same port named twice": {map[string]string{
			"BOOT-INF/classes/application.properties": "server.port=8080\nmanagement.server.port=8080\n"},
			"/actuator/health", "/actuator/health", "", false},
		"properties over yaml, default profile over both": {map[string]string{
			"BOOT-INF/classes/application.yml":                "server.servlet.context-path: /yaml\n",
			"BOOT-INF/classes/application.properties":         "server.servlet.context-path=/props\n",
			"BOOT-INF/classes/application-default.properties": "server.servlet.context-path=/default\n",
			"BOOT-INF/classes/application-prod.properties":    "server.servlet.context-path=/prod\n"},
			"/default/actuator/health", "/default/actuator/health", "/default", false},
		"a profile the jar activates, not default": {map[string]string{
			"BOOT-INF/classes/application.properties":         "spring.profiles.active=prod\n",
			"BOOT-INF/classes/application-default.properties": "server.servlet.context-path=/default\n",
			"BOOT-INF/classes/application-prod.yml":           "server.servlet.context-path: /prod\n"},
			"/prod/actuator/health", "/prod/actuator/health", "/prod", false},
		"placeholder default": {map[string]string{"BOOT-INF/classes/application.properties": "base=/b\nserver.servlet.context-path=${CTX:${base}}\n"},
			"/b/actuator/health", "/b/actuator/health", "/b", false},
	} {
		t.Run(name, func(t *testing.T) {
			r := springJar(t, c.files)
			if r.Ready != c.ready || r.Sample != c.sample || r.Paths.Context != c.ctx || r.Paths.ManagementPort != c.own || len(r.Guessed) != 0 {
				t.Errorf("ready %q sample %q ctx %q own %v guessed %q; want %q %q %q %v", r.Ready, r.Sample, r.Paths.Context, r.Paths.ManagementPort, r.Guessed, c.ready, c.sample, c.ctx, c.own)
			}
			hasArg := slices.Contains(r.Args, "--management.server.port=${management_port}")
			if hasArg != c.own || r.Args[0] != "--server.port=${port}" {
				t.Errorf("args %q", r.Args)
			}
			if slices.Contains(r.Paths.Alternatives, r.Ready) || !slices.Contains(r.Paths.Alternatives, "/health") {
				t.Errorf("alternatives %q", r.Paths.Alternatives)
			}
		})
	}
}

func TestSpringManagementOffIsAGuess(t *testing.T) {
	r := springJar(t, map[string]string{"BOOT-INF/classes/application.properties": "management.server.port=-1\n"})
	if r.Ready != "/" || len(r.Guessed) != 1 || !strings.Contains(r.Guessed[0], "management.server.port=-1") {
		t.Errorf("%q %q", r.Ready, r.Guessed)
	}
}

// A placeholder only the environment fills is not guessed at: the default
// path stands, and the key is named as ignored.
func TestSpringRuntimePlaceholderIgnored(t *testing.T) {
	r := springJar(t, map[string]string{"BOOT-INF/classes/application.properties": "server.servlet.context-path=${CTX}\n"})
	if r.Ready != "/actuator/health" || len(r.Paths.Ignored) != 1 || !strings.Contains(r.Paths.Ignored[0], "${CTX} is set at run time") {
		t.Errorf("%q %q", r.Ready, r.Paths.Ignored)
	}
}

// Malformed YAML in the jar: the file is ignored (one line naming it), its
// sibling .properties still counts, and detection succeeds.
func TestSpringMalformedYAMLIgnored(t *testing.T) {
	r := springJar(t, map[string]string{
		"BOOT-INF/classes/application.yml":        "server:\n  servlet: [\n",
		"BOOT-INF/classes/application.properties": "server.servlet.context-path=/ok\n",
	})
	if r.Ready != "/ok/actuator/health" || len(r.Paths.Ignored) != 1 ||
		!strings.HasPrefix(r.Paths.Ignored[0], "BOOT-INF/classes/application.yml: ") || strings.Contains(r.Paths.Ignored[0], "\n") {
		t.Errorf("%q %q", r.Ready, r.Paths.Ignored)
	}
	if !slices.Contains(r.Paths.Read, "server.servlet.context-path=/ok (BOOT-INF/classes/application.properties)") {
		t.Errorf("read %q", r.Paths.Read)
	}
}

// An entry that cannot be inflated (its data is not what its header says)
// is ignored as malformed YAML is.
func TestSpringUnreadableEntryIgnored(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for n, c := range map[string]string{
		"META-INF/MANIFEST.MF":                         string(manifest("Main-Class: org.springframework.boot.loader.launch.JarLauncher", "Spring-Boot-Version: 3.5.16")),
		"BOOT-INF/lib/spring-boot-actuator-3.5.16.jar": "",
	} {
		w, _ := zw.Create(n)
		w.Write([]byte(c))
	}
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "BOOT-INF/classes/application.properties", Method: zip.Deflate})
	w.Write([]byte(strings.Repeat("server.servlet.context-path=/broken\n", 50)))
	zw.Close()
	b := buf.Bytes()
	// Corrupt the compressed data of the entry written last.
	// Its local header comes first, its data right after the name.
	i := bytes.Index(b, []byte("BOOT-INF/classes/application.properties")) + len("BOOT-INF/classes/application.properties")
	for k := i; k < i+10 && k < len(b); k++ {
		b[k] ^= 0xff
	}
	p := filepath.Join(t.TempDir(), "app.jar")
	os.WriteFile(p, b, 0o644)
	r, err := Jar(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ready != "/actuator/health" || len(r.Paths.Ignored) != 1 || !strings.Contains(r.Paths.Ignored[0], "application.properties") {
		t.Errorf("%q %q", r.Ready, r.Paths.Ignored)
	}
}

func quarkusJar(t *testing.T, props string) *Result {
	t.Helper()
	dir := t.TempDir()
	jar := writeJar(t, dir, "quarkus-app/quarkus-run.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: io.quarkus.bootstrap.runner.QuarkusEntryPoint"),
	})
	for _, l := range []string{"lib/main/io.quarkus.quarkus-core-3.33.2.jar", "lib/main/io.quarkus.quarkus-smallrye-health-3.33.2.jar"} {
		writeJar(t, filepath.Join(dir, "quarkus-app"), l, map[string][]byte{})
	}
	writeJar(t, filepath.Join(dir, "quarkus-app"), "app/svc-1.0.jar", map[string][]byte{"application.properties": []byte(props)})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestQuarkusRootPathAndManagementInterface(t *testing.T) {
	for name, c := range []struct {
		props, ready, sample, ctx string
		own                       bool
	}{
		{"", "/q/health/ready", "/q/health", "", false},
		{"quarkus.http.root-path=/greet\n", "/greet/q/health/ready", "/greet/q/health", "/greet", false},
		{"quarkus.http.root-path=/greet\nquarkus.http.non-application-root-path=/admin\n", "/admin/health/ready", "/admin/health", "/greet", false},
		{"quarkus.http.root-path=/greet\nquarkus.management.enabled=true\n", "/q/health/ready", "http://127.0.0.1:${management_port}/q/health", "/greet", true},
		{"quarkus.management.enabled=true\nquarkus.management.root-path=/m\n", "/m/health/ready", "http://127.0.0.1:${management_port}/m/health", "", true},
		{"quarkus.http.root-path=/dev\n%prod.quarkus.http.root-path=/prod\n%dev.quarkus.http.root-path=/d\n", "/prod/q/health/ready", "/prod/q/health", "/prod", false},
	} {
		r := quarkusJar(t, c.props)
		own := r.Env["QUARKUS_MANAGEMENT_PORT"] == "${management_port}"
		if r.Ready != c.ready || r.Sample != c.sample || r.Paths.Context != c.ctx || r.Paths.ManagementPort != c.own || own != c.own || r.Env["QUARKUS_HTTP_PORT"] != "${port}" {
			t.Errorf("%d: ready %q sample %q ctx %q own %v env %q", name, r.Ready, r.Sample, r.Paths.Context, r.Paths.ManagementPort, r.Env)
		}
		if c.ctx != "" && !strings.Contains(r.Paths.ContextKey, "quarkus.http.root-path in app/svc-1.0.jar!/application.properties") {
			t.Errorf("%d: context key %q", name, r.Paths.ContextKey)
		}
	}
}

func TestMicronautContextPathAndEndpointsPort(t *testing.T) {
	mk := func(yml string) *Result {
		r, err := Jar(writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
			"META-INF/MANIFEST.MF":                   manifest("Main-Class: com.example.Application"),
			"io/micronaut/runtime/Micronaut.class":   nil,
			"io/micronaut/management/Endpoint.class": nil,
			"application.yml":                        []byte(yml),
		}))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := mk("micronaut:\n  server:\n    context-path: /api\n")
	if r.Ready != "/api/health" || r.Paths.Context != "/api" || r.Paths.ManagementPort {
		t.Errorf("%q %q", r.Ready, r.Paths.Context)
	}
	r = mk("endpoints:\n  all:\n    port: 8085\n    path: /ops\n")
	if r.Ready != "/ops/health" || !r.Paths.ManagementPort || r.Env["ENDPOINTS_ALL_PORT"] != "${management_port}" || r.Env["MICRONAUT_SERVER_PORT"] != "${port}" {
		t.Errorf("%q %v %q", r.Ready, r.Paths.ManagementPort, r.Env)
	}
}

func TestHelidonObserveOnItsOwnSocket(t *testing.T) {
	mk := func(yml string) *Result {
		r, err := Jar(writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
			"META-INF/MANIFEST.MF":                                     manifest("Main-Class: com.example.Main"),
			"io/helidon/webserver/WebServer.class":                     nil,
			"io/helidon/webserver/observe/health/HealthObserver.class": nil,
			"application.yaml":                                         []byte(yml),
		}))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := mk("server:\n  port: 8080\n  features:\n    observe:\n      endpoint: /ops\n")
	if r.Ready != "/ops/health" || r.Paths.ManagementPort {
		t.Errorf("%q", r.Ready)
	}
	r = mk("server:\n  sockets:\n    - name: web\n      port: 8081\n    - name: admin\n      port: 8082\n  features:\n    observe:\n      sockets: [admin]\n")
	want := map[string]string{"SERVER_PORT": "${port}", "SERVER_SOCKETS_1_PORT": "${management_port}"}
	if r.Ready != "/observe/health" || !r.Paths.ManagementPort || !reflect.DeepEqual(r.Env, want) {
		t.Errorf("%q %v %q", r.Ready, r.Paths.ManagementPort, r.Env)
	}
}
