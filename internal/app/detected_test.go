package app

import (
	"archive/zip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func manifestJar(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, _ := zw.Create("META-INF/MANIFEST.MF")
	w.Write([]byte("Manifest-Version: 1.0\r\n" + strings.Join(lines, "\r\n") + "\r\n\r\n"))
	zw.Close()
	f.Close()
	return p
}

// --jar without --ready: the framework's wiring, a free port per trial.
func TestFromJarWithoutReadyUsesTheFramework(t *testing.T) {
	dir := t.TempDir()
	helidon := manifestJar(t, dir, "svc.jar", "Main-Class: a.Main",
		"Class-Path: libs/helidon-webserver-4.5.0.jar libs/helidon-webserver-observe-health-4.5.0.jar")
	a, err := FromJar(helidon, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Port != 0 || a.Ready != "http://127.0.0.1:${port}/observe/health" || !reflect.DeepEqual(a.Env, map[string]string{"SERVER_PORT": "${port}"}) {
		t.Fatalf("%+v", a)
	}
	l, err := a.Expand(Values{Java: "java"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Port == 0 || !strings.HasSuffix(l.Ready, "/observe/health") || !strings.Contains(strings.Join(l.Env, " "), "SERVER_PORT=") {
		t.Errorf("%+v", l)
	}
	// Without a framework, or without its health module, --ready is needed.
	for _, lines := range [][]string{{"Main-Class: a.Main"}, {"Main-Class: org.springframework.boot.loader.launch.JarLauncher", "Spring-Boot-Version: 3.5.16"}} {
		jar := manifestJar(t, dir, "other.jar", lines...)
		if _, err := FromJar(jar, "", ""); err == nil || !strings.HasPrefix(err.Error(), "--ready") {
			t.Errorf("%q: %v", lines, err)
		}
	}
}
