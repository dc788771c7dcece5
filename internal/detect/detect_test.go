package detect

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadConstantsFindsClassesAndLiterals(t *testing.T) {
	c, err := readConstants(classFile([]string{"com/sun/net/httpserver/HttpServer"}, []string{"/health", "--port="}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.strings, []string{"/health", "--port="}) {
		t.Errorf("literals %q", c.strings)
	}
	if len(c.utf8) != 3 || c.utf8[0] != "com/sun/net/httpserver/HttpServer" {
		t.Errorf("utf8 %q", c.utf8)
	}
	for _, bad := range [][]byte{nil, []byte("not a class"), classFile(nil, []string{"x"})[:14]} {
		if _, err := readConstants(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestSpringBootFatJar(t *testing.T) {
	dir := t.TempDir()
	jar := writeJar(t, dir, "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: org.springframework.boot.loader.launch.JarLauncher",
			"Start-Class: com.example.App", "Spring-Boot-Version: 3.5.16"),
		"BOOT-INF/lib/spring-boot-actuator-3.5.16.jar": nil,
		"BOOT-INF/lib/spring-boot-3.5.16.jar":          nil,
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != SpringBoot || r.Version != "3.5.16" || r.Ready != "/actuator/health" ||
		!reflect.DeepEqual(r.Args, []string{"--server.port=${port}"}) || len(r.Guessed) != 0 || r.Port != 0 {
		t.Errorf("%+v", r)
	}
}

func TestSpringBootWithoutActuatorGuessesReadiness(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: org.springframework.boot.loader.launch.JarLauncher", "Spring-Boot-Version: 3.5.16"),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != SpringBoot || r.Ready != "/" || len(r.Guessed) != 1 || !strings.Contains(r.Guessed[0], "actuator") {
		t.Errorf("%+v", r)
	}
}

// Quarkus's fast-jar: quarkus-run.jar with lib/boot and lib/main beside it.
func TestQuarkusFastJar(t *testing.T) {
	dir := t.TempDir()
	jar := writeJar(t, dir, "quarkus-app/quarkus-run.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: io.quarkus.bootstrap.runner.QuarkusEntryPoint",
			"Class-Path:  lib/boot/io.quarkus.quarkus-bootstrap-runner-3.33.2.jar lib/boot/org.jboss.logm",
			" anager.jboss-logmanager-3.1.2.Final.jar"),
	})
	for _, l := range []string{"lib/main/io.quarkus.quarkus-core-3.33.2.jar", "lib/main/io.quarkus.quarkus-smallrye-health-3.33.2.jar"} {
		writeJar(t, filepath.Join(dir, "quarkus-app"), l, map[string][]byte{})
	}
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Quarkus || r.Version != "3.33.2" || r.Ready != "/q/health/ready" || r.Env["QUARKUS_HTTP_PORT"] != "${port}" || len(r.Args) != 0 {
		t.Errorf("%+v", r)
	}
}

func TestQuarkusRunJarWithoutItsLibIsRefused(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "quarkus-run.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: io.quarkus.bootstrap.runner.QuarkusEntryPoint"),
	})
	_, err := Jar(jar)
	if !IsInputError(err) || !strings.Contains(err.Error(), "lib/") {
		t.Errorf("%v", err)
	}
}

func TestMicronautShadedJar(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF":                                 manifest("Main-Class: com.example.Application"),
		"io/micronaut/runtime/Micronaut.class":                 nil,
		"io/micronaut/management/endpoint/health/Health.class": nil,
		"micronaut-version.properties":                         []byte("micronaut.version=4.10.15\n"),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Micronaut || r.Version != "4.10.15" || r.Ready != "/health" || r.Env["MICRONAUT_SERVER_PORT"] != "${port}" {
		t.Errorf("%+v", r)
	}
}

// Helidon SE: a thin jar whose Class-Path names libs/*.jar.
func TestHelidonThinJar(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: com.example.Main",
			"Class-Path: libs/helidon-webserver-4.5.0.jar libs/helidon-webserver-observe-health-4.5.0.jar"),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Helidon || r.Version != "4.5.0" || r.Ready != "/observe/health" || r.ReadyStatus != 204 || r.Env["SERVER_PORT"] != "${port}" {
		t.Errorf("%+v", r)
	}
}

func TestPlainReadsPortOptionAndHealthPathFromTheCode(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF":   manifest("Main-Class: com.example.Main"),
		"com/example/Main.class": classFile([]string{"com/sun/net/httpserver/HttpServer"}, []string{"--port=", "/api/items", "/health"}),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Plain || r.Ready != "/health" || !reflect.DeepEqual(r.Args, []string{"--port=${port}"}) || len(r.Guessed) != 0 ||
		!strings.Contains(r.Evidence, "com.example.Main") || r.JavaVersion != 17 {
		t.Errorf("%+v", r)
	}
}

func TestPlainWithEnvPortAndNoHealthGuesses(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF":   manifest("Main-Class: com.example.Main"),
		"com/example/Main.class": classFile([]string{"com/sun/net/httpserver/HttpServer"}, []string{"PORT"}),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Plain || r.Env["PORT"] != "${port}" || r.Ready != "/" || len(r.Guessed) != 1 {
		t.Errorf("%+v", r)
	}
}

// A main class and no server jvmfit knows: unknown, every wiring guessed.
func TestUnknownGuessesEverything(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app.jar", map[string][]byte{
		"META-INF/MANIFEST.MF":   manifest("Main-Class: com.example.Main"),
		"com/example/Main.class": classFile([]string{"io/undertow/Undertow"}, []string{"hello"}),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Unknown || r.Port != 8080 || r.Ready != "/" || len(r.Guessed) != 3 {
		t.Errorf("%+v", r)
	}
}

func TestInputErrorsAreOneLine(t *testing.T) {
	dir := t.TempDir()
	notZip := filepath.Join(dir, "corrupt.jar")
	os.WriteFile(notZip, []byte("PK\x03\x04 this is not really a zip"), 0o644)
	noMain := writeJar(t, dir, "lib.jar", map[string][]byte{"META-INF/MANIFEST.MF": manifest("Created-By: test")})
	noManifest := writeJar(t, dir, "bare.jar", map[string][]byte{"a.txt": []byte("x")})
	for _, c := range []struct{ file, want string }{
		{dir, "is a directory"},
		{filepath.Join(dir, "missing.jar"), "does not exist"},
		{notZip, "is not a jar"},
		{noMain, "no Main-Class"},
		{noManifest, "no Main-Class"},
	} {
		_, err := Jar(c.file)
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.file, err, c.want)
		}
	}
}

// Quarkus's legacy runner jar names its dependencies in its Class-Path.
func TestQuarkusLegacyRunnerJar(t *testing.T) {
	jar := writeJar(t, t.TempDir(), "app-runner.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: io.quarkus.runner.GeneratedMain",
			"Class-Path: lib/io.quarkus.quarkus-core-3.8.6.jar lib/io.quarkus.quarkus-smallrye-health-3.8.6.jar"),
	})
	r, err := Jar(jar)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Quarkus || r.Version != "3.8.6" || r.Ready != "/q/health/ready" {
		t.Errorf("%+v", r)
	}
}

// FS reads a jar inside any file tree (an unpacked image's, here a map):
// Quarkus's lib/ is looked up beside the jar in the same tree.
func TestFSReadsAJarInAnyTree(t *testing.T) {
	dir := t.TempDir()
	b, _ := os.ReadFile(writeJar(t, dir, "quarkus-run.jar", map[string][]byte{
		"META-INF/MANIFEST.MF": manifest("Main-Class: io.quarkus.bootstrap.runner.QuarkusEntryPoint"),
	}))
	tree := fstest.MapFS{
		"deployments/quarkus-run.jar":                             {Data: b},
		"deployments/lib/main/io.quarkus.quarkus-core-3.33.2.jar": {Data: []byte{}},
	}
	r, err := FS(tree, "deployments/quarkus-run.jar")
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != Quarkus || r.Version != "3.33.2" || r.Jar != "deployments/quarkus-run.jar" {
		t.Errorf("%+v", r)
	}
	if _, err := FS(tree, "deployments"); !IsInputError(err) {
		t.Errorf("a directory: %v", err)
	}
}

// A Spring Boot jar unpacked into a directory, as a buildpack leaves it in
// /workspace: detected from its manifest and BOOT-INF/lib.
func TestDirUnpackedSpringBoot(t *testing.T) {
	tree := fstest.MapFS{
		"workspace/META-INF/MANIFEST.MF": {Data: manifest("Main-Class: org.springframework.boot.loader.launch.JarLauncher",
			"Start-Class: com.example.App", "Spring-Boot-Version: 3.5.16")},
		"workspace/BOOT-INF/lib/spring-boot-actuator-3.5.16.jar": {Data: []byte{}},
		"workspace/BOOT-INF/classes/com/example/App.class":       {Data: classFile(nil, nil)},
	}
	r, err := Dir(tree, "workspace")
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != SpringBoot || r.Version != "3.5.16" || r.Ready != "/actuator/health" || r.JavaVersion != 17 {
		t.Errorf("%+v", r)
	}
}
