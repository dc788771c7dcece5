package main

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

func emptyJarFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "app.jar")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	z.Create("META-INF/MANIFEST.MF")
	z.Create("a/A.class")
	z.Close()
	f.Close()
	return p
}

// Every style prints in every format, with --explain, and the tool's own
// variables and the user's options are honoured as the tool does.
func TestFlagsStyleFormats(t *testing.T) {
	clitest.NeedJava(t)
	jar := emptyJarFile(t)
	base := []string{"flags", "--java", clitest.Java17, "--memory", "1Gi", "--cpus", "1"}
	for _, style := range []string{"jvmfit", "jdk", "runjava", "paketo", "ubi"} {
		for _, format := range []string{"shell", "json", "java-tool-options", "dockerfile", "k8s", "explain"} {
			args := append(append([]string{}, base...), "--style", style)
			if style == "paketo" {
				args = append(args, "--jar", jar)
			}
			if format == "explain" {
				args = append(args, "--explain")
			} else {
				args = append(args, "--format", format)
			}
			out, errOut, code := clitest.Run(t, nil, args...)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", style, format, code, errOut)
			}
			switch format {
			case "json":
				var v map[string]any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Errorf("%s json: %v\n%s", style, err, out)
				} else if style != "jvmfit" && v["style"] != style {
					t.Errorf("%s json: style %v", style, v["style"])
				}
			case "k8s":
				if !strings.Contains(out, "memory: 1Gi") || !strings.Contains(out, "JAVA_TOOL_OPTIONS") {
					t.Errorf("%s k8s:\n%s", style, out)
				}
			case "explain":
				if style != "jvmfit" && !strings.Contains(out, "style "+style) {
					t.Errorf("%s explain:\n%s", style, out)
				}
			}
		}
	}
	want := map[string]string{
		"ubi":     "-XX:MaxRAMPercentage=80.0 -XX:+UseParallelGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90 -XX:+ExitOnOutOfMemoryError -Dx=1\n",
		"runjava": "-Dx=1 -Xmx410m -XX:+ExitOnOutOfMemoryError\n",
		"jdk":     "-Dx=1\n",
	}
	for style, w := range want {
		out, errOut, code := clitest.Run(t, []string{"JAVA_MAX_MEM_RATIO=40"}, append(append([]string{}, base...), "--style", style, "--", "-Dx=1")...)
		if style == "ubi" {
			w = strings.Replace(w, "80.0", "40.0", 1)
		}
		if code != 0 || out != w {
			t.Errorf("%s with JAVA_MAX_MEM_RATIO=40 -- -Dx=1: %q (exit %d %s), want %q", style, out, code, errOut, w)
		}
	}
	out, _, _ := clitest.Run(t, nil, append(append([]string{}, base...), "--style", "paketo", "--jar", jar)...)
	if !strings.Contains(out, "-XX:ReservedCodeCacheSize=240M") || !strings.Contains(out, "-Xmx") {
		t.Errorf("paketo at 1Gi: %q", out)
	}
}

func TestFlagsStyleBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	jar := emptyJarFile(t)
	cases := map[string][]string{
		`--style "nope": use jvmfit, jdk, paketo, runjava, ubi`: {"--style", "nope"},
		"only --style paketo counts":                            {"--jar", jar},
		"no jar to count classes in":                            {"--style", "paketo"},
		"so the heap would be negative":                         {"--style", "paketo", "--jar", jar, "--memory", "256Mi"},
		"JAVA_MAX_MEM_RATIO":                                    {"--style", "ubi", "--memory", "1G", "--format", "yaml"},
		"drop them with --style ubi":                            {"--style", "ubi", "--goal", "footprint"},
	}
	for want, args := range cases {
		env := []string(nil)
		if want == "JAVA_MAX_MEM_RATIO" {
			want = `--format "yaml"`
		}
		_, errOut, code := clitest.Run(t, env, append([]string{"flags", "--java", clitest.Java17, "--cpus", "1", "--memory", "1G"}, args...)...)
		if code != 2 || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q; want one line with %q and exit 2", args, code, errOut, want)
		}
	}
}
