package image

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// LabelInputs is the label holding the hash of what an image was built from.
const LabelInputs = "jvmfit.inputs"

// The JDKs the tests build images from.
const (
	JDK17 = "/usr/lib/jvm/java-17-openjdk-amd64"
	JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64"
)

// upToDate is true when ref exists with inputs as its hash.
func upToDate(ctx context.Context, e docker.Engine, ref, inputs string) bool {
	got, err := e.Run(ctx, nil, "image", "inspect", "--format", `{{index .Config.Labels "`+LabelInputs+`"}}`, ref)
	return err == nil && got == inputs
}

// JDKBase makes ref (e.g. jvmfit-test/jdk17:latest) a base image holding
// the JDK at home, unless it already exists from the same inputs. It
// reports whether it built.
func JDKBase(ctx context.Context, e docker.Engine, home, ref string) (bool, error) {
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return false, fmt.Errorf("no JDK at %s: %w", home, err)
	}
	libs, err := Libraries(ctx, real)
	if err != nil {
		return false, fmt.Errorf("cannot list the libraries of %s: %w", home, err)
	}
	inputs, err := hashInputs(append([]string{real}, libs...))
	if err != nil {
		return false, err
	}
	if upToDate(ctx, e, ref, inputs) {
		return false, nil
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(WriteRootfs(pw, real, libs)) }()
	_, err = e.Run(ctx, pr, "import",
		"--change", "ENV JAVA_HOME="+real,
		"--change", "ENV PATH="+real+"/bin:/usr/bin:/bin",
		"--change", "LABEL "+LabelInputs+"="+inputs,
		"-", ref)
	pr.Close()
	if err != nil {
		return false, fmt.Errorf("cannot import the rootfs of %s as %s: %w", home, ref, err)
	}
	return true, nil
}

// dockerfile adds the app's jar to a base image; the entrypoint takes JVM
// options only from JAVA_TOOL_OPTIONS, like most users' images.
const dockerfile = `FROM %s
COPY app.jar /app.jar
LABEL %s=%s
ENTRYPOINT ["java", "-jar", "/app.jar"]
`

// App makes ref an image FROM base with jar as /app.jar, unless it exists
// from the same inputs (the base's id and the jar). It reports whether it
// built.
func App(ctx context.Context, e docker.Engine, base, jar, ref string) (bool, error) {
	baseID, err := e.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", base)
	if err != nil {
		return false, fmt.Errorf("no base image %s (build it first): %w", base, err)
	}
	inputs, err := hashInputs([]string{jar}, baseID)
	if err != nil {
		return false, err
	}
	if upToDate(ctx, e, ref, inputs) {
		return false, nil
	}
	dir, err := os.MkdirTemp("", "jvmfit-image-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	if err := copyFile(jar, filepath.Join(dir, "app.jar")); err != nil {
		return false, err
	}
	df := fmt.Sprintf(dockerfile, base, LabelInputs, inputs)
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(df), 0o644); err != nil {
		return false, err
	}
	// The classic builder: it needs no buildx plugin and no registry.
	if _, err := e.Run(ctx, nil, "build", "--quiet", "--tag", ref, dir); err != nil {
		return false, fmt.Errorf("cannot build %s from %s: %w", ref, jar, err)
	}
	return true, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
