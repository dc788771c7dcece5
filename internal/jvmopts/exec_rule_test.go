package jvmopts_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/launcher"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

const java17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"

// A trial under --jvm jvmfit gives java what `jvmfit exec` would give it
// for the same limits and user options (the descriptor's jvm_options on
// exec's command line): one planning rule. Before, trials planned with
// Override alone: -Xmx300m at 512 MiB stored MaxMetaspaceSize=35m in the
// trial while exec left metaspace uncapped, and -Xmx350m was refused.
func TestTrialPlansAsExecDoes(t *testing.T) {
	prereq.Java(t, java17)
	j, err := jdk.Inspect(java17)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		mem   string
		user  []string
		doubt bool
	}{
		{"512Mi", []string{"-Xmx300m"}, true},
		{"512Mi", []string{"-Xmx350m"}, true},
		{"1Gi", []string{"-XX:MaxRAMPercentage=75"}, true},
		{"512Mi", []string{"-Xms400m"}, true},
		{"512Mi", []string{"-Xmx256m"}, false},
		{"512Mi", []string{"-Xss1m", "-XX:MaxDirectMemorySize=64m", "-XX:+UseG1GC"}, false},
		{"128Mi", nil, false},
		{"64Mi", []string{"-Xmx48m"}, true},
		{"2Gi", []string{"-Dapp.mode=x"}, false},
	}
	for _, c := range cases {
		name := c.mem + " " + strings.Join(c.user, " ")
		mem, _ := size.Parse(c.mem)
		res, err := jvmopts.Resolve(jvmopts.Request{Mode: "jvmfit", JDK: j, MemoryBytes: mem, CPUs: 1, UserOptions: c.user})
		if err != nil {
			t.Errorf("%s: trial refused: %v", name, err)
			continue
		}
		p, err := launcher.Plan(launcher.Request{Java: java17, Memory: c.mem, CPUs: "1"}, launch.Env{}, c.user)
		if err != nil {
			t.Errorf("%s: exec refused: %v", name, err)
			continue
		}
		// exec -- <the descriptor's jvm_options> -jar app.jar
		argv, err := launch.Argv(java17, p, launch.Env{}, append(slices.Clone(c.user), "-jar", "app.jar"))
		if err != nil {
			t.Fatal(err)
		}
		if opts := argv[1 : len(argv)-2]; !slices.Equal(res.Options, opts) {
			t.Errorf("%s: the trial gives java\n  %v\nexec gives it\n  %v", name, res.Options, opts)
		}
		if (res.Doubt != "") != c.doubt || res.Doubt != p.Doubt {
			t.Errorf("%s: trial's doubt %q, exec's %q; want a doubt: %v", name, res.Doubt, p.Doubt, c.doubt)
		}
		if c.doubt && slices.ContainsFunc(res.Options, func(o string) bool { return strings.HasPrefix(o, "-XX:MaxMetaspaceSize=") }) {
			t.Errorf("%s: in doubt, yet metaspace capped: %v", name, res.Options)
		}
	}
	// The strict switch is exec --strict's refusal, still detectable as a
	// refusal (minmem counts it a KO that costs no trial).
	_, err = jvmopts.Resolve(jvmopts.Request{Mode: "jvmfit", JDK: j, MemoryBytes: 512 * size.MiB, CPUs: 1, UserOptions: []string{"-Xmx300m"}, Strict: true})
	var ref *plan.RefusedError
	if !errors.As(err, &ref) {
		t.Errorf("strict -Xmx300m at 512Mi: %v; want a *plan.RefusedError", err)
	}
}
