//go:build linux

package container

import (
	"context"
	"github.com/jvmfit/jvmfit/internal/trial"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

// needImage builds (or finds up to date) a test image.
func needImage(t *testing.T, ref string) {
	t.Helper()
	prereq.Docker(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	root, _ := filepath.Abs("../../..")
	switch ref {
	case image.JDK25Ref:
		prereq.Java(t, image.JDK25+"/bin/java")
	case image.FilecacheRef:
		prereq.Built(t, image.FilecacheJar(root))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := image.Ensure(ctx, docker.Default(), root, ref); err != nil {
		t.Fatal(err)
	}
}

// imageDescriptor writes an image app's descriptor beside a copy of
// filecache's scenario.
func imageDescriptor(t *testing.T, yaml string) *app.App {
	t.Helper()
	dir := t.TempDir()
	sc, err := os.ReadFile("../../../workloads/filecache/scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), sc, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := app.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestImagePlanIsTheImagesJDK: an image built from Temurin 25 is planned
// for as JDK 25 while the host's default java is 17, and the plan is the
// one the same JDK gets on the host: its CDS archive's size came out of
// the image too (a plan without it would give metaspace more room).
func TestImagePlanIsTheImagesJDK(t *testing.T) {
	needImage(t, image.JDK25Ref)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the image's JDK files are copied afresh
	host, err := jdk.Find("")
	if err != nil {
		t.Fatal(err)
	}
	if hj, err := jdk.Inspect(host); err != nil || hj.Version != 17 {
		t.Fatalf("the host's default java is %s (%v): this test wants 17", host, err)
	}
	a := imageDescriptor(t, "image: "+image.JDK25Ref+"\nready: http://127.0.0.1:${port}/\n")
	base := trial.Spec{JVM: "jvmfit", MemoryBytes: size.GiB, CPUs: 1}
	got, err := trial.Prepare(base, a, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.JDKVersion != 25 || got.Image != image.JDK25Ref || !strings.HasPrefix(got.ImageID, "sha256:") || got.Engine != "docker" {
		t.Fatalf("spec %+v: want JDK 25 from image %s", got, image.JDK25Ref)
	}
	if want := image.JDK25Ref + ":"; !strings.HasPrefix(got.Java, want) || !strings.HasSuffix(got.Java, "/bin/java") {
		t.Errorf("java %q: want %sPATH/bin/java", got.Java, want)
	}
	jar := imageDescriptor(t, "jar: x.jar\nready: http://127.0.0.1:${port}/\n")
	on25 := base
	on25.Java = image.JDK25 + "/bin/java"
	host25, err := trial.Prepare(on25, jar, "")
	if err != nil {
		t.Fatal(err)
	}
	host17, err := trial.Prepare(base, jar, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.JVMOptions, host25.JVMOptions) {
		t.Errorf("the image's plan %q differs from JDK 25's on the host %q", got.JVMOptions, host25.JVMOptions)
	}
	// Without a profile the planner may give JDK 17 and 25 the same options
	// (the JDK's own heap below ~420 MiB, the panel's budget above); where
	// they differ, the image's must be 25's.
	if !slices.Equal(host17.JVMOptions, host25.JVMOptions) && slices.Equal(got.JVMOptions, host17.JVMOptions) {
		t.Errorf("the image's plan is the host JDK 17's %q: want JDK 25's", host17.JVMOptions)
	}
	if got.Key() == host25.Key() {
		t.Error("an image trial has the key of a host trial")
	}
	// --java cannot pick another JDK for an image.
	other := base
	other.Java = image.JDK17 + "/bin/java"
	if _, err := trial.Prepare(other, a, ""); err == nil || !strings.Contains(err.Error(), "drop --java") {
		t.Errorf("--java with an image: %v, want a refusal", err)
	}
}

// TestImageTrialUnderLoad runs filecache's image from a descriptor
// (host network, args with ${port}) through the trial's steps with load:
// OK, every probe fed from the container (cgroup, java process,
// hsperfdata), the JVM options reaching the JVM through JAVA_TOOL_OPTIONS
// (the heap maximum it reports is -Xmx96m), NMT read with the image's
// jcmd, and no container left.
func TestImageTrialUnderLoad(t *testing.T) {
	prereq.Root(t)
	needImage(t, image.FilecacheRef)
	a := imageDescriptor(t, `name: filecache-image
image: `+image.FilecacheRef+`
args: ["--server.port=${port}"]
env: {SPRING_MAIN_BANNER_MODE: "off"}
ready: http://127.0.0.1:${port}/actuator/health
ready_timeout: 150s
scenario: scenario.yaml
`)
	// filecache, light: 20 files, 4 workers, short phases.
	spec := trial.Spec{MemoryBytes: 256 * size.MiB, CPUs: 1, Rate: 20, Warmup: 3 * time.Second, Duration: 5 * time.Second,
		Vars: map[string]string{"files": "20", "workers": "4"}, SLO: "success>=0.99,start<=120s"}
	spec.JVM, spec.NMT = "-Xmx96m", true
	spec, err := trial.Prepare(spec, a, "")
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	o := trial.Options{Progress: &progress, LogDir: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := Backend{}.Run(ctx, spec, a, o)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if r.Verdict != trial.OK {
		t.Fatalf("%s %s %v\n%s\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail, progress.String())
	}
	if r.HeapMaxBytes != 96*size.MiB {
		t.Errorf("heap max %s: want the 96Mi of JAVA_TOOL_OPTIONS=-Xmx96m", size.Format(r.HeapMaxBytes))
	}
	if !strings.Contains(progress.String(), "--network host --env SPRING_MAIN_BANNER_MODE=off --env 'JAVA_TOOL_OPTIONS=-Xmx96m -XX:NativeMemoryTracking=summary' "+image.FilecacheRef+" --server.port=") {
		t.Errorf("the echoed command line is not the container's:\n%s", progress.String())
	}
	s := r.Summary
	if r.MemoryPeakBytes <= 0 || r.MemoryPeakBytes > 256*size.MiB || r.WorkingSetPeakBytes <= 0 {
		t.Errorf("cgroup peak %d, working set %d: want the container's, within 256Mi", r.MemoryPeakBytes, r.WorkingSetPeakBytes)
	}
	if s.RSSPeak <= 0 || s.HeapCommPeak <= 0 || s.MetaspacePeak <= 0 || s.GCCount == 0 || s.ThreadsPeak == 0 || s.FDsPeak == 0 || s.CPUTime <= 0 {
		t.Errorf("summary %+v: want RSS, heap, metaspace, GC, threads, fds and CPU from the container's JVM", s)
	}
	if r.NMT["Java Heap"].Committed <= 0 {
		t.Errorf("NMT %v, notes %q: want the summary through the image's jcmd", r.NMT, r.Notes)
	}
	if r.Load == nil || r.Load.Requests == 0 {
		t.Error("no load ran against the container")
	}
	if !strings.Contains(r.Env.JDK, "17.") || !strings.Contains(r.Env.JDK, image.FilecacheRef) {
		t.Errorf("env JDK %q: want the image's JDK 17", r.Env.JDK)
	}
	out, err := docker.Default().Run(ctx, nil, "ps", "--all", "--quiet", "--filter", "label="+docker.LabelPid+"="+strconv.Itoa(os.Getpid()))
	if err != nil || out != "" {
		t.Errorf("containers left: %q %v", out, err)
	}
	noContainerCgroups(t)
}

// noContainerCgroups fails if this process's container sub-tree is left
// after its trials, as a plain trial's group would not be.
func noContainerCgroups(t *testing.T) {
	t.Helper()
	s, err := containerSandbox(context.Background(), "docker")
	if err != nil {
		t.Fatal(err)
	}
	if dir := filepath.Join(s.Tree.Mount, s.Tree.Parent); exists(dir) {
		t.Errorf("the container cgroup sub-tree %s is left after the trial", dir)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
