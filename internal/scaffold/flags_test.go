package scaffold

import (
	"archive/zip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func workloadJar(t *testing.T, rel string) string {
	jar := filepath.Join("..", "..", "workloads", rel)
	prereq.Built(t, jar)
	return jar
}

// fakeJar writes a jar holding only a manifest, which is all detection
// reads for these cases.
func fakeJar(t *testing.T, manifest string) string {
	jar := filepath.Join(t.TempDir(), "svc.jar")
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	w, _ := z.Create("META-INF/MANIFEST.MF")
	w.Write([]byte("Manifest-Version: 1.0\r\n" + manifest))
	z.Close()
	f.Close()
	return jar
}

// A jar given by flags becomes the app init would write: the framework's
// port wiring, then the user's args and env, its readiness URL, and a
// scenario of the --get paths, kept in one directory per input.
func TestFlagsJarIsWhatInitWrites(t *testing.T) {
	jar := workloadJar(t, "greet-spring/target/greet-spring.jar")
	dir := t.TempDir()
	f := Flags{Args: []string{"--greeting=hi"}, Env: []string{"TZ=UTC"}, Gets: []string{"/api/greeting", "/api/greeting?name=x"}, Dir: dir}
	a, err := f.Jar(jar, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"--server.port=${port}", "--greeting=hi"}; !reflect.DeepEqual(a.Args, want) {
		t.Errorf("args %q; want %q", a.Args, want)
	}
	if a.Env["TZ"] != "UTC" || a.Port != 0 || a.Ready != "http://127.0.0.1:${port}/actuator/health" || a.Name != "greet-spring" {
		t.Errorf("env %v, port %d, ready %q, name %q", a.Env, a.Port, a.Ready, a.Name)
	}
	if abs, _ := filepath.Abs(filepath.Dir(jar)); a.Dir != abs {
		t.Errorf("the app runs in %s; want its jar's directory %s", a.Dir, abs)
	}
	if a.Rate != DefaultRate || a.SLO != DefaultSLO {
		t.Errorf("rate %g, slo %q; want init's defaults", a.Rate, a.SLO)
	}
	if !strings.HasPrefix(a.Scenario, dir) {
		t.Errorf("scenario %s is not kept under %s", a.Scenario, dir)
	}
	sc, err := scenario.Load(a.Scenario, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(a.Scenario)
	if len(sc.Requests) != 2 || !strings.Contains(string(b), `url: "/api/greeting"`) || !strings.Contains(string(b), `url: "/api/greeting?name=x"`) {
		t.Errorf("scenario has %d requests; want the two GETs:\n%s", len(sc.Requests), b)
	}
	// The same flags, the same directory (a rerun finds its trials);
	// other flags, another.
	again, _ := f.Jar(jar, "")
	other, _ := Flags{Gets: []string{"/other"}, Dir: dir}.Jar(jar, "")
	if again.Scenario != a.Scenario || other == nil || other.Scenario == a.Scenario {
		t.Errorf("scenario paths %s, %s, %v: want the first two equal, the third apart", a.Scenario, again.Scenario, other)
	}
	// Without --get, the framework's own endpoint is the load.
	health, err := Flags{Dir: dir}.Jar(jar, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(health.Scenario); !strings.Contains(string(b), `url: "/actuator/health"`) {
		t.Errorf("default scenario:\n%s", b)
	}
}

// Quarkus's quarkus-run.jar is named for its project, and its port goes
// through the environment.
func TestFlagsQuarkus(t *testing.T) {
	a, err := Flags{Dir: t.TempDir()}.Jar(workloadJar(t, "greet-quarkus/target/quarkus-app/quarkus-run.jar"), "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "greet-quarkus" || a.Env["QUARKUS_HTTP_PORT"] != "${port}" {
		t.Errorf("name %q, env %v", a.Name, a.Env)
	}
}

// What detection cannot tell is refused with what to give instead; with
// --get, a framework without its health module is ready at the first path.
func TestFlagsJarRefusals(t *testing.T) {
	dir := t.TempDir()
	noActuator := fakeJar(t, "Main-Class: org.springframework.boot.loader.launch.JarLauncher\r\nSpring-Boot-Version: 3.5.0\r\n")
	if _, err := (Flags{Dir: dir}).Jar(noActuator, ""); err == nil || !strings.Contains(err.Error(), "give --get PATH") {
		t.Errorf("Spring Boot without Actuator, no --get: %v", err)
	}
	a, err := Flags{Gets: []string{"/api/items"}, Dir: dir}.Jar(noActuator, "")
	if err != nil || a.Ready != "http://127.0.0.1:${port}/api/items" {
		t.Errorf("with --get: %+v, %v", a, err)
	}
	unknown := fakeJar(t, "Main-Class: x.Main\r\n")
	if _, err := (Flags{Gets: []string{"/a"}, Dir: dir}).Jar(unknown, ""); err == nil || !strings.Contains(err.Error(), "--ready") {
		t.Errorf("unknown framework: %v", err)
	}
	sc := filepath.Join(dir, "s.yaml")
	os.WriteFile(sc, []byte("requests: {}\n"), 0o644)
	if _, err := (Flags{Gets: []string{"/a"}, Dir: dir}).Jar(noActuator, sc); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--get with --scenario: %v", err)
	}
	for _, f := range []Flags{{Gets: []string{"a"}}, {Env: []string{"NOEQUALS"}}, {Env: []string{"=v"}}} {
		f.Dir = dir
		if _, err := f.Jar(noActuator, ""); err == nil {
			t.Errorf("%+v accepted", f)
		}
	}
}

// An image (or a jar with --ready) keeps its readiness URL; --get writes
// its scenario and --arg and --env are added to it. A descriptor takes
// none of them.
func TestFlagsResolveImage(t *testing.T) {
	dir := t.TempDir()
	f := Flags{Args: []string{"--x"}, Env: []string{"A=b"}, Gets: []string{"/api/items"}, Dir: dir}
	a, err := f.Resolve(app.Source{Image: "registry.example/team/shop:1.4", Ready: "http://127.0.0.1:8080/health"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Args, []string{"--x"}) || a.Env["A"] != "b" || a.Port != 8080 {
		t.Errorf("args %q, env %v, port %d", a.Args, a.Env, a.Port)
	}
	if b, err := os.ReadFile(a.Scenario); err != nil || !strings.Contains(string(b), `url: "/api/items"`) || !strings.Contains(a.Scenario, "shop-") {
		t.Errorf("scenario %s: %s %v", a.Scenario, b, err)
	}
	desc := filepath.Join(dir, "app.yaml")
	os.WriteFile(desc, []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"), 0o644)
	if _, err := f.Resolve(app.Source{Descriptor: desc}); err == nil || !strings.Contains(err.Error(), "go with --jar or --image") {
		t.Errorf("--get with a descriptor: %v", err)
	}
}

// Helidon's port goes through SERVER_PORT, a free one per trial, and its
// health answers at /observe/health.
func TestFlagsHelidonExpands(t *testing.T) {
	a, err := Flags{Dir: t.TempDir()}.Jar(workloadJar(t, "greet-helidon/target/greet-helidon.jar"), "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Expand(app.Values{Java: "java"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Port != 0 || l.Port == 0 || !strings.HasSuffix(l.Ready, "/observe/health") || !strings.Contains(strings.Join(l.Env, " "), "SERVER_PORT=") {
		t.Errorf("app %+v, launch %+v", a, l)
	}
}

// A jar built for a newer Java than --java is refused, as init refuses it;
// without --java a JDK new enough is named.
func TestFlagsJavaForTheJarsClasses(t *testing.T) {
	java17 := "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java17)
	jar := workloadJar(t, "greet-helidon/target/greet-helidon.jar")
	if _, err := (Flags{Java: java17, Dir: t.TempDir()}).Jar(jar, ""); err == nil || !strings.Contains(err.Error(), "need Java 21") {
		t.Errorf("--java 17 for Helidon 4: %v", err)
	}
	a, err := Flags{Dir: t.TempDir()}.Jar(jar, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Java == java17 {
		t.Errorf("java %q for a Java 21 jar", a.Java)
	}
}
