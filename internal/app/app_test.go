package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadFullDescriptor(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "scenario.yaml", "name: x\n")
	write(t, dir, "sets.yaml", "pardef: [-XX:+UseParallelGC, -Xmx256M]\n")
	p := write(t, dir, "app.yaml", `
name: filecache
jar: target/filecache.jar
args: ["--server.port=${port}"]
env: {BANNER: "off", JAVA_BIN: "${java}"}
port: 0
ready: http://127.0.0.1:${port}/health
ready_timeout: 30s
scenario: scenario.yaml
vars: {files: 50}
slo: "p99<=500ms"
rate: 100
jvm_options: [-Dx=1]
option_sets: sets.yaml
`)
	a, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if a.Jar != filepath.Join(dir, "target/filecache.jar") || a.ReadyTimeout != 30*time.Second || a.Rate != 100 || a.Vars["files"] != "50" {
		t.Fatalf("parsed wrong: %+v", a)
	}
	// The caller places the descriptor's jvm_options (jvmopts.Resolve).
	l, err := a.Expand(Values{Java: "/j/bin/java", JVMOptions: append(a.JVMOptions, "-Xmx64m")})
	if err != nil {
		t.Fatal(err)
	}
	if l.Port == 0 {
		t.Fatal("no free port picked")
	}
	want := []string{"/j/bin/java", "-Dx=1", "-Xmx64m", "-jar", a.Jar, "--server.port=" + itoa(l.Port)}
	if strings.Join(l.Argv, " ") != strings.Join(want, " ") {
		t.Fatalf("argv %q, want %q", l.Argv, want)
	}
	if l.Ready != "http://127.0.0.1:"+itoa(l.Port)+"/health" {
		t.Fatalf("ready %q", l.Ready)
	}
	env := strings.Join(l.Env, "\n")
	if !strings.Contains(env, "JAVA_BIN=/j/bin/java") || !strings.Contains(env, "BANNER=off") {
		t.Fatalf("env lacks descriptor entries")
	}
	sets, err := LoadOptionSets(a.OptionSets)
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := sets.Get("pardef", a.OptionSets); len(o.Options) != 2 {
		t.Fatalf("pardef %q", o)
	}
	if _, err := sets.Get("nope", a.OptionSets); err == nil || !strings.Contains(err.Error(), "pardef") {
		t.Fatalf("missing set error should list names: %v", err)
	}
}

func TestCommandExpandsJVMOptionsToManyArgs(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte(`
command: ["${java}", "${jvm_options}", "-cp", "classes", "Server", "serve", "${port}"]
port: 8123
ready: http://127.0.0.1:${port}/health
`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Expand(Values{Java: "java", JVMOptions: []string{"-Xss512k", "-XX:+UseSerialGC"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "java -Xss512k -XX:+UseSerialGC -cp classes Server serve 8123"
	if got := strings.Join(l.Argv, " "); got != want {
		t.Fatalf("argv %q, want %q", got, want)
	}
	l, _ = a.Expand(Values{Java: "java"})
	if got := strings.Join(l.Argv, " "); got != "java -cp classes Server serve 8123" {
		t.Fatalf("empty options must vanish, got %q", got)
	}
}

func TestJavaOptionsFromEnvironmentAreNotInherited(t *testing.T) {
	t.Setenv("JAVA_TOOL_OPTIONS", "-Xmx1g")
	a, _ := Parse("/x/app.yaml", []byte("jar: a.jar\nready: http://127.0.0.1:1/\n"))
	l, err := a.Expand(Values{Java: "java"})
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range l.Env {
		if strings.HasPrefix(kv, "JAVA_TOOL_OPTIONS=") {
			t.Fatal("JAVA_TOOL_OPTIONS leaked into the app's environment")
		}
	}
}

func TestBadDescriptorsGetOneClearLine(t *testing.T) {
	cases := []struct{ body, want string }{
		{"", "empty file"},
		{"ready: http://127.0.0.1:1/\n", "jar: missing"},
		{"jar: a.jar\n", "ready: missing"},
		{"jar: a.jar\nmain_class: X\nclasspath: c\nready: http://h/\n", "only one of"},
		{"main_class: X\nready: http://h/\n", "classpath: missing"},
		{"jar: a.jar\nready: localhost:8080\n", "not an http:// URL"},
		{"jar: a.jar\nready: http://h/\nready_timeout: soon\n", `ready_timeout: "soon" is not a positive duration`},
		{"jar: a.jar\nready: http://h/\nport: http\n", `port: "http" is not a port number`},
		{"jar: a.jar\nready: http://h/\nrate: -3\n", `rate: "-3" is not a positive number`},
		{"jar: a.jar\nready: http://h/\nreddy: 1\n", `field reddy is not a descriptor field`},
		{"jar: a.jar\nready: http://h/\nscenario: missing.yaml\n", "scenario: file"},
		{"jar: a.jar\nready: http://h/\nargs: [\"${prot}\"]\n", "unknown variable ${prot}"},
		{"jar: a.jar\nready: http://h/\njvm_options: [Xmx1g]\n", `jvm_options[0]: "Xmx1g" is not a JVM option`},
		{"jar: a.jar\nready: http://h/\nservices: [{name: db}]\n", "services[0]: needs a name and a kind"},
		{"jar: a.jar\nready: http://h/\nservices: [{name: db, kind: postgres, memory: lots}]\n", "services[0].memory"},
		{"jar: [a\n", "/tmp/"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		p := write(t, dir, "app.yaml", c.body)
		_, err := Load(p)
		if err == nil {
			t.Errorf("%q: accepted", c.body)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, p+": ") || strings.Contains(msg, "\n") {
			t.Errorf("%q: error %q should be one line starting with the file and containing %q", c.body, msg, c.want)
		}
	}
}

func TestServicesExportVariables(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte(`
jar: a.jar
args: ["--db=${db_url}"]
ready: http://127.0.0.1:${port}/
services: [{name: db, kind: postgres, memory: 256Mi, cpus: 1}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if a.Services[0].Memory != 256<<20 || a.Services[0].CPUs != 1 {
		t.Fatalf("service %+v", a.Services[0])
	}
	l, _ := a.Expand(Values{Java: "java", Exports: map[string]string{"db_url": "jdbc:x"}})
	if l.Argv[len(l.Argv)-1] != "--db=jdbc:x" {
		t.Fatalf("argv %q", l.Argv)
	}
}

func TestFromJar(t *testing.T) {
	dir := t.TempDir()
	jar := write(t, dir, "svc-1.0.jar", "PK")
	a, err := FromJar(jar, "http://127.0.0.1:8080/health", "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "svc-1.0" || a.Port != 8080 {
		t.Fatalf("%+v", a)
	}
	l, _ := a.Expand(Values{Java: "java"})
	if strings.Join(l.Argv, " ") != "java -jar "+jar || l.Port != 8080 {
		t.Fatalf("argv %q port %d", l.Argv, l.Port)
	}
	if _, err := FromJar(filepath.Join(dir, "nope.jar"), "http://h/", ""); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing jar: %v", err)
	}
	if _, err := FromJar(jar, "", ""); err == nil || !strings.HasPrefix(err.Error(), "--ready") {
		t.Fatalf("missing ready: %v", err)
	}
}

func TestBadOptionSets(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"pardef: -XX:+UseParallelGC\n": "expected name: [options...]",
		"pardef: [UseParallelGC]\n":    `"UseParallelGC" is not a JVM option`,
	} {
		_, err := LoadOptionSets(write(t, dir, "s.yaml", body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// Finding 3 of issue 12: args next to a command were silently dropped.
func TestArgsFollowTheCommand(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte(`
command: ["${java}", "${jvm_options}", "-jar", "app.jar"]
args: ["--server.port=${port}", "--spring.profiles.active=demo"]
port: 8123
ready: http://127.0.0.1:${port}/health
`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Expand(Values{Java: "java"})
	if err != nil {
		t.Fatal(err)
	}
	want := "java -jar app.jar --server.port=8123 --spring.profiles.active=demo"
	if got := strings.Join(l.Argv, " "); got != want {
		t.Fatalf("argv %q, want %q", got, want)
	}
}

// Finding 6: jvm_options are placeholder-expanded like the rest, and an
// unknown name in them is refused when the descriptor is read.
func TestJVMOptionsArePlaceholderExpanded(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte(`
jar: app.jar
port: 8123
ready: http://127.0.0.1:${port}/health
jvm_options: ["-Dapp.port=${port}", "-Dcom.sun.management.jmxremote.port=${port}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Expand(Values{Java: "java", JVMOptions: a.JVMOptions})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(l.Argv, " "); !strings.Contains(got, "-Dapp.port=8123 -Dcom.sun.management.jmxremote.port=8123 -jar") {
		t.Fatalf("argv %q: placeholders not expanded in jvm_options", got)
	}
	_, err = Parse("/x/app.yaml", []byte("jar: a.jar\nready: http://127.0.0.1:${port}/\njvm_options: [\"-Dx=${nope}\"]\n"))
	if err == nil || !strings.Contains(err.Error(), "jvm_options[0]: unknown variable ${nope}") {
		t.Fatalf("unknown placeholder in jvm_options: %v", err)
	}
}

// Finding 4: a descriptor names its JDK, as a java binary or a JDK home.
func TestDescriptorNamesItsJava(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "jdk")
	os.MkdirAll(filepath.Join(home, "bin"), 0o755)
	os.WriteFile(filepath.Join(home, "bin", "java"), []byte("#!/bin/sh\n"), 0o755)
	for java, want := range map[string]string{"jdk": filepath.Join(home, "bin", "java"), "jdk/bin/java": filepath.Join(home, "bin", "java")} {
		a, err := Parse(filepath.Join(dir, "app.yaml"), []byte("jar: a.jar\nready: http://127.0.0.1:${port}/\njava: "+java+"\n"))
		if err != nil || a.Java != want {
			t.Errorf("java: %s gave %q, %v; want %s", java, a.Java, err, want)
		}
	}
	for java, msg := range map[string]string{"nowhere": "does not exist", ".": "directory without bin/java"} {
		_, err := Parse(filepath.Join(dir, "app.yaml"), []byte("jar: a.jar\nready: http://127.0.0.1:${port}/\njava: "+java+"\n"))
		if err == nil || !strings.Contains(err.Error(), ": java: ") || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("java: %s: %v, want one line with %q", java, err, msg)
		}
	}
}

// Issue 12, finding 13: an option set carries environment variables.
func TestOptionSetCarriesEnv(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sets.yaml")
	os.WriteFile(p, []byte("A: [-Xmx64m]\nB: {options: [-Xmx64m, -XX:+UseSerialGC], env: {MALLOC_ARENA_MAX: \"2\"}}\n"), 0o644)
	sets, err := LoadOptionSets(p)
	if err != nil {
		t.Fatal(err)
	}
	if a := sets["A"]; len(a.Options) != 1 || a.Env != nil {
		t.Errorf("A: %+v", a)
	}
	if b := sets["B"]; len(b.Options) != 2 || b.Env["MALLOC_ARENA_MAX"] != "2" {
		t.Errorf("B: %+v", b)
	}
	os.WriteFile(p, []byte("B: {options: [-Xmx64m], environment: {X: y}}\n"), 0o644)
	if _, err := LoadOptionSets(p); err == nil || !strings.Contains(err.Error(), `"environment" is not a set field`) || strings.Contains(err.Error(), "\n") {
		t.Errorf("unknown set field: %v", err)
	}
}
