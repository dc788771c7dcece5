package jvmopts

import (
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
)

func TestSplitLikeAShell(t *testing.T) {
	cases := map[string][]string{
		`-Xmx64m -Xss512k`:               {"-Xmx64m", "-Xss512k"},
		`  -Dmsg='a b'   -Xmx1g `:        {"-Dmsg=a b", "-Xmx1g"},
		`-Dq="say \"hi\"" -Da=\ b`:       {`-Dq=say "hi"`, "-Da= b"},
		`-Dempty='' -X`:                  {"-Dempty=", "-X"},
		"-XX:+UseSerialGC\t-XX:+UseNUMA": {"-XX:+UseSerialGC", "-XX:+UseNUMA"},
	}
	for in, want := range cases {
		got, err := launch.SplitOptions(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("SplitOptions(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := launch.SplitOptions(`-Dx='open`); err == nil {
		t.Error("unclosed quote accepted")
	}
}

func TestModes(t *testing.T) {
	dir := t.TempDir()
	sets := filepath.Join(dir, "sets.yaml")
	os.WriteFile(sets, []byte("serdef: [-XX:+UseSerialGC, -Xmx256M]\n"), 0o644)

	if o, err := Resolve(Request{Mode: "default"}); err != nil || o.Options != nil || o.Env != nil {
		t.Errorf("default: %q %v, want no options", o, err)
	}
	if o, err := Resolve(Request{Mode: "set:serdef", OptionSets: sets}); err != nil || strings.Join(o.Options, " ") != "-XX:+UseSerialGC -Xmx256M" {
		t.Errorf("set:serdef: %q %v", o, err)
	}
	if o, err := Resolve(Request{Mode: "-Xmx100m -XX:+UseSerialGC"}); err != nil || len(o.Options) != 2 {
		t.Errorf("custom: %q %v", o, err)
	}
	for mode, want := range map[string]string{
		"set:nope":     `no option set "nope"`,
		"set:":         "give the option set's name",
		"Xmx100m":      "neither a mode nor a JVM option",
		"-Dx='a":       "unclosed",
		"jvmfit:speed": `unknown goal "speed"`,
	} {
		_, err := Resolve(Request{Mode: mode, OptionSets: sets, MemoryBytes: 256 << 20, CPUs: 1})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", mode, err, want)
		}
	}
	if _, err := Resolve(Request{Mode: "set:serdef"}); err == nil || !strings.Contains(err.Error(), "--option-sets") {
		t.Errorf("set without file: %v", err)
	}
}

func TestJvmfitPlansForTheTrialsLimitsNotOurs(t *testing.T) {
	const java = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java)
	j, err := jdk.Inspect(java)
	if err != nil {
		t.Fatal(err)
	}
	small, err := Resolve(Request{Mode: "jvmfit", JDK: j, MemoryBytes: 192 << 20, CPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	big, err := Resolve(Request{Mode: "jvmfit:throughput", JDK: j, MemoryBytes: 2 << 30, CPUs: 2})
	if err != nil {
		t.Fatal(err)
	}
	xmx := func(o Resolved) string {
		for _, s := range o.Options {
			if strings.HasPrefix(s, "-Xmx") {
				return s
			}
		}
		return ""
	}
	if xmx(small) == "" || xmx(small) == xmx(big) {
		t.Fatalf("the plan ignores the trial's limit: %q vs %q", small, big)
	}
}

// The descriptor's options come with every mode: before a set's or
// --jvm's own, and after the plan's; a set's env is the mode's env.
func TestDescriptorOptionsAndSetEnv(t *testing.T) {
	sets := filepath.Join(t.TempDir(), "sets.yaml")
	os.WriteFile(sets, []byte("B: {options: [-Xmx64m], env: {MALLOC_ARENA_MAX: \"2\"}}\n"), 0o644)
	user := []string{"-Dapp=1"}
	for mode, want := range map[string]string{
		"default":        "-Dapp=1",
		"set:B":          "-Dapp=1 -Xmx64m",
		"-Xss512k -Da=b": "-Dapp=1 -Xss512k -Da=b",
	} {
		o, err := Resolve(Request{Mode: mode, OptionSets: sets, UserOptions: user})
		if err != nil || strings.Join(o.Options, " ") != want {
			t.Errorf("%s: %q %v, want %q", mode, o.Options, err, want)
		}
		if (mode == "set:B") != (o.Env["MALLOC_ARENA_MAX"] == "2") {
			t.Errorf("%s: env %v", mode, o.Env)
		}
	}
}
