package docker

import (
	"archive/tar"
	"bytes"
	"testing"
)

// fsOf builds an image tree: "dir/", "file" (executable), "link -> target".
func fsOf(t *testing.T, entries ...string) imageFS {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range entries {
		switch {
		case e[len(e)-1] == '/':
			tw.WriteHeader(&tar.Header{Name: e, Typeflag: tar.TypeDir, Mode: 0o755})
		case bytes.Contains([]byte(e), []byte(" -> ")):
			parts := bytes.SplitN([]byte(e), []byte(" -> "), 2)
			tw.WriteHeader(&tar.Header{Name: string(parts[0]), Typeflag: tar.TypeSymlink, Linkname: string(parts[1])})
		default:
			tw.WriteHeader(&tar.Header{Name: e, Typeflag: tar.TypeReg, Mode: 0o755})
		}
	}
	tw.Close()
	fs, err := readImageFS(&b)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// A merged-/usr Debian image: /bin -> usr/bin, java through alternatives.
func debianFS(t *testing.T) imageFS {
	return fsOf(t, "usr/", "usr/bin/", "bin -> usr/bin", "etc/", "etc/alternatives/",
		"usr/lib/", "usr/lib/jvm/", "usr/lib/jvm/java-17-openjdk-amd64/", "usr/lib/jvm/java-17-openjdk-amd64/bin/",
		"usr/lib/jvm/java-17-openjdk-amd64/bin/java",
		"usr/bin/java -> /etc/alternatives/java", "etc/alternatives/java -> /usr/lib/jvm/java-17-openjdk-amd64/bin/java")
}

func TestResolveFollowsEveryLink(t *testing.T) {
	fs := debianFS(t)
	if real, ok := resolve(fs, "/bin/java"); !ok || real != "/usr/lib/jvm/java-17-openjdk-amd64/bin/java" {
		t.Errorf("%s %v", real, ok)
	}
	loop := fsOf(t, "a -> b", "b -> a")
	if _, ok := resolve(loop, "/a"); ok {
		t.Error("a link loop resolved")
	}
}

func TestFindJavaAsTheEntrypointWould(t *testing.T) {
	const debianJava = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	for _, c := range []struct {
		name  string
		fs    imageFS
		start ImageStart
		want  string
	}{
		// The image: java through PATH, no JAVA_HOME.
		{"PATH, no JAVA_HOME", debianFS(t), ImageStart{Argv: []string{"java", "-jar", "/app.jar"}, Env: []string{"PATH=/usr/local/bin:/usr/bin:/bin"}}, debianJava},
		// Distroless: no shell, no JAVA_HOME, java by path.
		{"distroless", debianFS(t), ImageStart{Argv: []string{"/usr/bin/java", "-jar", "/app.jar"}}, debianJava},
		// A shell form whose PATH is the default.
		{"shell form", debianFS(t), ImageStart{Argv: []string{"/bin/sh", "-c", "exec java $JAVA_OPTS -jar /app.jar"}}, debianJava},
		// Temurin: JAVA_HOME set, the entrypoint a script.
		{"temurin", fsOf(t, "opt/", "opt/java/", "opt/java/openjdk/", "opt/java/openjdk/bin/", "opt/java/openjdk/bin/java", "entrypoint.sh"),
			ImageStart{Argv: []string{"/entrypoint.sh"}, Env: []string{"JAVA_HOME=/opt/java/openjdk", "PATH=/opt/java/openjdk/bin:/usr/bin"}}, "/opt/java/openjdk/bin/java"},
		// A buildpack: its launcher sets the JRE's PATH at start, the image's config does not.
		{"buildpack", fsOf(t, "cnb/", "cnb/process/", "cnb/process/web", "layers/", "layers/paketo-buildpacks_bellsoft-liberica/",
			"layers/paketo-buildpacks_bellsoft-liberica/jre/", "layers/paketo-buildpacks_bellsoft-liberica/jre/bin/",
			"layers/paketo-buildpacks_bellsoft-liberica/jre/bin/java"),
			ImageStart{Argv: []string{"/cnb/process/web"}, Env: []string{"PATH=/cnb/process:/cnb/lifecycle:/usr/bin"}}, "/layers/paketo-buildpacks_bellsoft-liberica/jre/bin/java"},
	} {
		got, ok := findJava(c.fs, c.start)
		if !ok || got.java != c.want {
			t.Errorf("%s: %+v %v, want %s", c.name, got, ok, c.want)
		}
	}
	if got, ok := findJava(fsOf(t, "bin/", "bin/sh"), ImageStart{Argv: []string{"/bin/sh"}}); ok {
		t.Errorf("an image without java: %+v", got)
	}
}
