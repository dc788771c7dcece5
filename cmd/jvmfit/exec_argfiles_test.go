package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The options the user gives in files are the user's too: @argfiles (on
// the command line or in JDK_JAVA_OPTIONS, read by the java launcher),
// -XX:VMOptionsFile (read by HotSpot, in place of the option) and
// -XX:Flags (HotSpot's settings file, read before every other option).
// jvmfit plans around them, and never sets a region they set.
func TestExecReadsArgfilesAndVMOptionsFile(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	heapArgs := file("heap.args", "# the heap, a comment to the end of the line\n\"-Xmx200m\" # quoted\n")
	vmOpts := file("vm.opts", "-Dx=a\\ -Xmx200m\n")
	flagsRC := file("flags.rc", "# a settings file: -XX: options without the prefix\nMaxHeapSize=200m\n")
	bigArgs := file("big.args", "-Xmx350m")
	bigOpts := file("big.opts", "-Xmx350m")
	for _, c := range []struct {
		name string
		env  []string
		args []string
		mem  string
		heap string
		warn bool
	}{
		{name: "JDK_JAVA_OPTIONS=@argfile", env: []string{"JDK_JAVA_OPTIONS=@" + heapArgs}, mem: "1Gi", heap: "209715200"},
		{name: "JAVA_TOOL_OPTIONS=-XX:VMOptionsFile", env: []string{"JAVA_TOOL_OPTIONS=-XX:VMOptionsFile=" + vmOpts}, mem: "1Gi", heap: "209715200"},
		{name: "-XX:Flags settings file", args: []string{"-XX:Flags=" + flagsRC}, mem: "1Gi", heap: "209715200"},
		{name: "@argfile on the command line", args: []string{"@" + bigArgs}, mem: "512Mi", heap: "367001600", warn: true},
		{name: "-XX:VMOptionsFile on the command line", args: []string{"-XX:VMOptionsFile=" + bigOpts}, mem: "512Mi", heap: "367001600", warn: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--memory", c.mem, "--cpus", "1", "--"}, c.args...)
			flags, _, errs, code := execFinal(t, c.env, args...)
			if code != 0 {
				t.Fatalf("exit %d\nstderr:\n%s", code, errs)
			}
			if got := flags["MaxHeapSize"][0]; got != c.heap {
				t.Errorf("MaxHeapSize %s, want the user's %s\nstderr:\n%s", got, c.heap, errs)
			}
			if w := strings.Contains(errs, "jvmfit: warning:"); w != c.warn {
				t.Errorf("warning %v, want %v: the plan was not made around the user's heap\nstderr:\n%s", w, c.warn, errs)
			}
			if c.warn && strings.Contains(flags["MaxMetaspaceSize"][1], "{command line}") {
				t.Errorf("metaspace capped at %s where the user's heap leaves it no room", flags["MaxMetaspaceSize"][0])
			}
		})
	}
}
