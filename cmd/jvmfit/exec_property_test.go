package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

// userCase is one random launch: a limit, CPUs, and user options spread
// over JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, JAVA_OPTS (through a start
// script) and java's command line.
type userCase struct {
	mem    int64
	cpus   int
	env    map[string][]string // variable → options
	args   []string            // java's command-line options
	script bool                // run java through sh -c '... $JAVA_OPTS ...'
	bad    string              // a malformed option planted, "" for none
}

func (c userCase) environ() []string {
	var out []string
	for k, v := range c.env {
		out = append(out, k+"="+strings.Join(v, " "))
	}
	return out
}

func (c userCase) String() string {
	return fmt.Sprintf("%s, %d CPUs, env %v, args %v, script %v", size.Format(c.mem), c.cpus, c.environ(), c.args, c.script)
}

// randomCase draws a limit log-uniform from 64 MiB to 16 GiB and each
// kind of user option with some chance, each in a random place.
func randomCase(rng *rand.Rand) userCase {
	c := userCase{mem: int64(float64(64*size.MiB)*math.Pow(2, rng.Float64()*8)) / size.MiB * size.MiB,
		cpus: 1 + rng.Intn(8), env: map[string][]string{}, script: rng.Intn(4) == 0}
	memMiB := int(c.mem / size.MiB)
	var opts []string
	maybe := func(p float64, o string) {
		if rng.Float64() < p {
			opts = append(opts, o)
		}
	}
	maybe(0.3, fmt.Sprintf("-Xmx%dm", 16+rng.Intn(memMiB*11/10)))
	maybe(0.2, fmt.Sprintf("-Xms%dm", 8+rng.Intn(memMiB*6/10)))
	maybe(0.2, fmt.Sprintf("-XX:MaxRAMPercentage=%d", 10+rng.Intn(81)))
	maybe(0.15, fmt.Sprintf("-XX:InitialRAMPercentage=%d", 1+rng.Intn(90)))
	maybe(0.2, fmt.Sprintf("-XX:MaxMetaspaceSize=%dm", 32+rng.Intn(480)))
	maybe(0.2, fmt.Sprintf("-XX:ReservedCodeCacheSize=%dm", 8+rng.Intn(248)))
	if rng.Intn(2) == 0 {
		maybe(0.2, fmt.Sprintf("-Xss%dk", 256+rng.Intn(1792)))
	} else {
		maybe(0.2, fmt.Sprintf("-XX:ThreadStackSize=%d", 256+rng.Intn(1792)))
	}
	maybe(0.2, fmt.Sprintf("-XX:MaxDirectMemorySize=%dm", 1+rng.Intn(1024)))
	maybe(0.25, []string{"-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseZGC"}[rng.Intn(4)])
	if rng.Intn(50) == 0 {
		c.bad = "-Xmx12q"
		opts = append(opts, c.bad)
	}
	places := []string{"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "args"}
	if c.script {
		places = append(places, "JAVA_OPTS")
	}
	for _, o := range opts {
		switch p := places[rng.Intn(len(places))]; p {
		case "args":
			if c.script {
				c.env["JAVA_OPTS"] = append(c.env["JAVA_OPTS"], o) // a script's command line is JAVA_OPTS
			} else {
				c.args = append(c.args, o)
			}
		default:
			c.env[p] = append(c.env[p], o)
		}
	}
	return c
}

// userOptions is what exec plans around for c: launch.Env as exec reads it.
func (c userCase) userOptions(t *testing.T) []string {
	env, err := launch.ReadEnv(func(k string) string { return strings.Join(c.env[k], " ") })
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	opts, err := env.UserOptions(c.args)
	if c.script {
		opts, err = env.ScriptOptions()
	}
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	return opts
}

// Over limits from 64 MiB to 16 GiB and random user option sets, exec's
// plan never refuses over sizing (only a malformed option), keeps every
// option of the user's, never gives the heap an -Xmx below the user's
// -Xms, never caps the open metaspace below what an app may need to start
// when the user's options take the room, and says any doubt in one line.
// A sample of the cases runs through the real binary and the real JVMs:
// java must accept what exec gives it whenever it accepts the user's own
// options alone.
func TestExecNeverRefusesOverSizing(t *testing.T) {
	prereq.Java(t, clitest.Java17)
	jdks := map[string]jdk.JDK{}
	for v, path := range formJDKs {
		prereq.Java(t, path)
		j, err := jdk.Inspect(path)
		if err != nil {
			t.Fatal(err)
		}
		jdks[v] = j
	}
	rng := rand.New(rand.NewSource(21))
	versions := []string{"17", "21", "25"}
	var sample []userCase
	doubts := 0
	for i := 0; i < 3000; i++ {
		c := randomCase(rng)
		v := versions[i%3]
		in := plan.Input{Limits: cgroup.Limits{MemoryBytes: c.mem, HostMemoryBytes: 1 << 40, CPUQuota: float64(c.cpus), HostCPUs: 64}, JDK: jdks[v]}
		user := c.userOptions(t)
		p, _, err := plan.Fit(in, user)
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Fatalf("%s: a malformed %s was not refused by name: %v", c, c.bad, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: refused: %v", c, err)
		}
		checkFitPlan(t, c, p, user)
		if p.Doubt != "" {
			doubts++
		}
		sp, _, serr := plan.Strict(in, user)
		var ref *plan.RefusedError
		if p.Doubt == "" && (serr != nil || strings.Join(sp.Options, " ") != strings.Join(p.Options, " ")) {
			t.Fatalf("%s: no doubt, yet --strict differs: %v", c, serr)
		}
		if p.Doubt != "" && !errors.As(serr, &ref) {
			t.Fatalf("%s: a doubt (%s) that --strict does not refuse: %v", c, p.Doubt, serr)
		}
		if len(sample) < 24 && i%3 == len(sample)%3 {
			sample = append(sample, c)
		}
	}
	if doubts == 0 || doubts == 3000 {
		t.Errorf("%d doubts in 3000 cases: the property does not reach both sides", doubts)
	}
	started := 0
	for i, c := range sample {
		java := formJDKs[versions[i%3]]
		if checkJVMAccepts(t, c, java) {
			started++
		}
	}
	t.Logf("%d plans, %d in doubt; %d of %d sampled launches started java, the rest refused by java for the user's own options", 3000, doubts, started, len(sample))
	if started < len(sample)/2 {
		t.Errorf("only %d of %d sampled launches started: the sample tests little", started, len(sample))
	}
}

func checkFitPlan(t *testing.T, c userCase, p *plan.Plan, user []string) {
	t.Helper()
	set := map[string]bool{}
	heapSteered := false
	for _, o := range user {
		k := plan.FlagKey(o)
		set[k] = true
		if k == "MaxRAMPercentage" || k == "MinRAMPercentage" || k == "MaxRAM" {
			heapSteered = true
		}
	}
	takes := false
	for _, k := range []string{"MaxHeapSize", "MaxRAMPercentage", "InitialHeapSize", "MaxMetaspaceSize", "ReservedCodeCacheSize", "MaxDirectMemorySize", "ThreadStackSize"} {
		takes = takes || set[k]
	}
	for _, o := range p.Options {
		k := plan.FlagKey(o)
		if set[k] || k == "MaxHeapSize" && heapSteered {
			t.Fatalf("%s: jvmfit emits %s over the user's own", c, o)
		}
		if strings.HasPrefix(o, "-Xmx") {
			xmx, _ := size.Parse(o[4:])
			for _, u := range user {
				if strings.HasPrefix(u, "-Xms") {
					if xms, _ := size.Parse(u[4:]); xms > xmx {
						t.Fatalf("%s: jvmfit's %s is below the user's %s: the JVM refuses it", c, o, u)
					}
				}
			}
		}
		if v, ok := strings.CutPrefix(o, "-XX:MaxMetaspaceSize="); ok && takes {
			if n, _ := size.Parse(v); n < 64*size.MiB {
				t.Fatalf("%s: metaspace capped at %s in the room the user's options leave", c, v)
			}
		}
	}
	if strings.Contains(p.Doubt, "\n") {
		t.Fatalf("%s: the doubt is not one line: %q", c, p.Doubt)
	}
	for _, r := range p.Regions {
		if r.Bytes < 0 {
			t.Fatalf("%s: negative region %+v", c, r)
		}
	}
}

// checkJVMAccepts runs c through the real binary; java must start, or
// refuse the user's options alone just the same. It reports whether java
// started.
func checkJVMAccepts(t *testing.T, c userCase, java string) bool {
	t.Helper()
	env := append(c.environ(), "JAVA_HOME="+filepath.Dir(filepath.Dir(java)))
	args := []string{"exec", "--memory", size.Format(c.mem), "--cpus", fmt.Sprint(c.cpus), "--"}
	if c.script {
		args = append(args, "/bin/sh", "-c", `exec "$JAVA_HOME/bin/java" $JAVA_OPTS -version`)
	} else {
		args = append(append(append(args, java), c.args...), "-version")
	}
	_, errs, code := clitest.Run(t, env, args...)
	if code == 0 {
		return true
	}
	// The user's options alone, without jvmfit.
	var direct *exec.Cmd
	if c.script {
		direct = exec.Command("/bin/sh", "-c", `exec "$JAVA_HOME/bin/java" $JAVA_OPTS -version`)
	} else {
		direct = exec.Command(java, append(append([]string{}, c.args...), "-version")...)
	}
	direct.Env = append(append([]string{"PATH=/usr/bin:/bin"}, env...), "JAVA_OPTIONS=")
	if err := direct.Run(); err == nil {
		t.Errorf("%s on %s: exec exit %d but java accepts the user's options alone:\n%s", c, java, code, errs)
	}
	return false
}
