package docker

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scriptedDocker is a docker command over a directory as the image's root:
// create names a container, cp writes GNU tar's archive of one path (a
// link as a link, as docker cp does), inspect gives the image's start, and
// every command is logged. export fails: the lookup must not need it.
func scriptedDocker(t *testing.T, root, config string) (Engine, string) {
	t.Helper()
	if _, err := exec.LookPath("tar"); err != nil {
		t.Fatal("no tar on PATH (Debian package tar)")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	script := `#!/bin/sh
echo "$*" >>` + log + `
case $1 in
create) echo ctr1 ;;
image) echo '` + config + `' ;;
cp) p=${2#*:}; exec tar -C "` + root + `$(dirname "$p")" -cf - "$(basename "$p")" 2>/dev/null || { echo "Error: No such container:path: $2" >&2; exit 1; } ;;
rm) ;;
*) echo "unexpected $1" >&2; exit 1 ;;
esac
`
	bin := filepath.Join(dir, "docker")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return Engine{Bin: bin}, log
}

// A Debian-like image: /bin a link to usr/bin, java through a relative
// link to a JDK under /usr/lib/jvm, and a large file beside it. The JDK is
// found through every link by single paths, and neither the large file
// nor the image as a whole is read.
func TestImageJDKReadsSinglePaths(t *testing.T) {
	root := t.TempDir()
	jdkDir := filepath.Join(root, "usr/lib/jvm/java-21-openjdk-amd64")
	for _, d := range []string{"usr/bin", "usr/lib/jvm/java-21-openjdk-amd64/bin", "usr/lib/jvm/java-21-openjdk-amd64/lib", "data"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(jdkDir, "bin/java"), []byte("#!/bin/sh\n"), 0o755))
	must(os.WriteFile(filepath.Join(jdkDir, "release"), []byte("JAVA_VERSION=\"21.0.4\"\nIMPLEMENTOR=\"Debian\"\n"), 0o644))
	must(os.Symlink("../lib/jvm/java-21-openjdk-amd64/bin/java", filepath.Join(root, "usr/bin/java")))
	must(os.Symlink("usr/bin", filepath.Join(root, "bin")))
	must(os.WriteFile(filepath.Join(root, "data/big"), make([]byte, 8<<20), 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range []struct{ name, config string }{
		{"java on PATH through /bin", `{"Entrypoint":["java"],"Env":["PATH=/bin"]}`},
		{"a usual place (/usr/lib/jvm/*)", `{"Entrypoint":["/app/run.sh"]}`},
	} {
		e, log := scriptedDocker(t, root, c.config)
		j, err := ImageJDK(ctx, e, "img:1")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if j.Version != 21 || j.Home != "/usr/lib/jvm/java-21-openjdk-amd64" || j.Path != "/usr/lib/jvm/java-21-openjdk-amd64/bin/java" {
			t.Errorf("%s: JDK %d at %s (%s), want 21 at /usr/lib/jvm/java-21-openjdk-amd64", c.name, j.Version, j.Home, j.Path)
		}
		b, _ := os.ReadFile(log)
		calls := string(b)
		if strings.Contains(calls, "export") || strings.Contains(calls, ":/data") || strings.Contains(calls, "cp ctr1:/ ") {
			t.Errorf("%s: the lookup read more than the paths it visits:\n%s", c.name, calls)
		}
		if !strings.Contains(calls, "rm --force ctr1") {
			t.Errorf("%s: the container was not removed:\n%s", c.name, calls)
		}
	}
}

// A path the image lacks is no java, and an engine that fails otherwise
// says so, not "no java found".
func TestImageJDKSaysTheEnginesError(t *testing.T) {
	e, _ := scriptedDocker(t, t.TempDir(), `{"Entrypoint":["java"],"Env":["PATH=/bin"]}`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := ImageJDK(ctx, e, "img:1"); err == nil || !strings.Contains(err.Error(), "no java found") {
		t.Errorf("an image without java: %v", err)
	}
	broken := filepath.Join(t.TempDir(), "docker")
	os.WriteFile(broken, []byte("#!/bin/sh\ncase $1 in create) echo ctr1;; image) echo '{\"Entrypoint\":[\"java\"]}';; cp) echo 'Error response from daemon: layer store gone' >&2; exit 1;; esac\n"), 0o755)
	_, err := ImageJDK(ctx, Engine{Bin: broken}, "img:1")
	if err == nil || !strings.Contains(err.Error(), "layer store gone") {
		t.Errorf("an engine that fails: %v, want its error", err)
	}
}

// An export that writes nothing and exits 0 (podman in the cgroup v2
// guest) is the engine's failure, not an image without java.
func TestEmptyExportIsAnError(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "podman")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := exportFS(ctx, Engine{Bin: bin}, "ctr1"); err == nil || !strings.Contains(err.Error(), "wrote no files") {
		t.Errorf("an empty export: %v, want an error saying it wrote nothing", err)
	}
}
