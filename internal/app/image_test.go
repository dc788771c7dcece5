package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestImageDescriptor(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := Parse(filepath.Join(dir, "app.yaml"), []byte(`
name: fc
image: jvmfit-test/filecache:jdk17
args: ["--server.port=8080"]
env: {SPRING_MAIN_BANNER_MODE: "off"}
user: "65534"
tmpfs: ["/tmp", "/work:size=16m"]
volumes: ["data:/data:ro"]
container_port: 8080
ready: http://127.0.0.1:${port}/actuator/health
jvm_options: ["-Dmsg=a b", "-Xss512k"]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Container{User: "65534", Tmpfs: []string{"/tmp", "/work:size=16m"}, Volumes: []string{filepath.Join(dir, "data") + ":/data:ro"}, Port: 8080}
	if a.Image != "jvmfit-test/filecache:jdk17" || !equalContainer(*a.Container, want) {
		t.Fatalf("got image %q container %+v, want %+v", a.Image, a.Container, want)
	}
	t.Setenv("JVMFIT_HOST_ONLY", "1")
	l, err := a.Expand(Values{JVMOptions: a.JVMOptions})
	if err != nil {
		t.Fatal(err)
	}
	// Only the entrypoint's arguments, and only what the container is given:
	// the host's environment would replace the image's PATH and JAVA_HOME.
	if !slices.Equal(l.Argv, []string{"--server.port=8080"}) {
		t.Errorf("argv %q: want only the args", l.Argv)
	}
	wantEnv := []string{"SPRING_MAIN_BANNER_MODE=off", `JAVA_TOOL_OPTIONS="-Dmsg=a b" -Xss512k`}
	if !slices.Equal(l.Env, wantEnv) {
		t.Errorf("env %q, want %q", l.Env, wantEnv)
	}
	if l.Port == 0 || !strings.Contains(l.Ready, ":"+strconv.Itoa(l.Port)+"/") {
		t.Errorf("ready %q port %d: the host port is a free one", l.Ready, l.Port)
	}
}

func TestImageTmpfsEmptyMeansNone(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte("image: x\ntmpfs: []\nready: http://127.0.0.1:1/\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Container.Tmpfs == nil || len(a.Container.Tmpfs) != 0 {
		t.Errorf("tmpfs: [] gave %#v, want an empty list (no tmpfs), not nil (/tmp)", a.Container.Tmpfs)
	}
	b, _ := Parse("/x/app.yaml", []byte("image: x\nready: http://127.0.0.1:1/\n"))
	if b.Container.Tmpfs != nil {
		t.Errorf("no tmpfs key gave %#v, want nil (the default /tmp)", b.Container.Tmpfs)
	}
}

func TestImageDescriptorRefusals(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"image: x\njar: a.jar\nready: http://h:1/", "only one of jar, main_class, command or image"},
		{"image: x\njava: /usr\nready: http://h:1/", "java: an image runs its own JDK"},
		{"jar: a.jar\nuser: root\nready: http://h:1/", "user: only an image app"},
		{"jar: a.jar\ncontainer_port: 80\nready: http://h:1/", "container_port: only an image app"},
		{"image: x\ncontainer_port: 0\nready: http://h:1/", "container_port: \"0\" is not a port"},
		{"image: x\ntmpfs: [tmp]\nready: http://h:1/", "tmpfs[0]"},
		{"image: x\nvolumes: [/nope-jvmfit:/d]\nready: http://h:1/", "does not exist"},
		{"image: x\nvolumes: [/tmp]\nready: http://h:1/", "HOST:CONTAINER"},
		{"image: x\nenv: {JAVA_TOOL_OPTIONS: -Xmx1g}\nready: http://h:1/", "put yours in jvm_options"},
		{"image: a b\nready: http://h:1/", "not an image reference"},
	} {
		_, err := Parse("/x/app.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want one line with %q", c.yaml, err, c.want)
		}
	}
}

func TestFromImage(t *testing.T) {
	a, err := FromImage("registry.local/team/shop:1.2", "http://127.0.0.1:8081/health", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "shop" || a.Port != 8081 || a.Container.Port != 0 || a.Image != "registry.local/team/shop:1.2" {
		t.Errorf("got %+v", a)
	}
	for _, c := range []struct {
		image, ready string
		port         int
		want         string
	}{
		{"", "http://h:1/", 0, "--image"},
		{"x", "", 0, "--ready"},
		{"x", "ftp://h/", 0, "--ready"},
		{"x", "http://127.0.0.1/health", 8080, "host port"},
	} {
		if _, err := FromImage(c.image, c.ready, "", c.port); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromImage(%q, %q, %d): %v, want %q", c.image, c.ready, c.port, err, c.want)
		}
	}
}

func TestToolOptions(t *testing.T) {
	got := ToolOptions([]string{"-Xmx64m", "-Da=b c", `-Dq="x y"`})
	if want := `-Xmx64m "-Da=b c" '-Dq="x y"'`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func equalContainer(a, b Container) bool {
	return a.User == b.User && a.Port == b.Port && slices.Equal(a.Tmpfs, b.Tmpfs) && slices.Equal(a.Volumes, b.Volumes)
}

// TestDigestUnchangedWithoutImage: a descriptor without image: marshals
// (and so digests, in the trial's key) as before the image fields existed,
// so stored trials are still found by resume.
func TestDigestUnchangedWithoutImage(t *testing.T) {
	a, err := Parse("/x/app.yaml", []byte("jar: a.jar\nready: http://127.0.0.1:1/\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(a)
	if strings.Contains(string(b), "Image") || strings.Contains(string(b), "Container") {
		t.Errorf("a jar descriptor's JSON %s names the image fields", b)
	}
}
