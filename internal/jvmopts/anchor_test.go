package jvmopts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

func jdk17(t *testing.T) jdk.JDK {
	const java = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java)
	j, err := jdk.Inspect(java)
	if err != nil {
		t.Fatalf("JDK 17: %v", err)
	}
	return j
}

// The anchor modes are planned for each trial's own limit, and a Paketo
// limit too small for its regions is a refusal, like the planner's.
func TestAnchorModesAtTheTrialsLimit(t *testing.T) {
	j := jdk17(t)
	jar := filepath.Join(t.TempDir(), "app.jar")
	if err := os.WriteFile(jar, []byte("not a zip: no classes"), 0o644); err != nil {
		t.Fatal(err)
	}
	user := []string{"-Dapp=1"}
	_, err := Resolve(Request{Mode: "paketo", JDK: j, MemoryBytes: 256 * size.MiB, CPUs: 1, Jar: jar, UserOptions: user})
	var ref *plan.RefusedError
	if !errors.As(err, &ref) || ref.LimitBytes != 256*size.MiB || strings.Contains(err.Error(), "\n") {
		t.Fatalf("paketo at 256Mi: %v; want one line wrapping a *plan.RefusedError", err)
	}
	small, err := Resolve(Request{Mode: "paketo", JDK: j, MemoryBytes: size.GiB, CPUs: 1, Jar: jar, UserOptions: user})
	big, err2 := Resolve(Request{Mode: "paketo", JDK: j, MemoryBytes: 2 * size.GiB, CPUs: 1, Jar: jar, UserOptions: user})
	if err != nil || err2 != nil || small.Options[0] != "-Dapp=1" || xmxOf(small.Options) == xmxOf(big.Options) {
		t.Fatalf("paketo 1Gi %q %v / 2Gi %q %v: want the user's first and an -Xmx per limit", small.Options, err, big.Options, err2)
	}
	ubi, err := Resolve(Request{Mode: "ubi", JDK: j, MemoryBytes: size.GiB, CPUs: 1, UserOptions: user})
	if err != nil || ubi.Options[0] != "-XX:MaxRAMPercentage=80.0" || ubi.Options[len(ubi.Options)-1] != "-Dapp=1" {
		t.Fatalf("ubi: %q %v; want the image's options, then yours (JAVA_OPTS_APPEND)", ubi.Options, err)
	}
	rj, err := Resolve(Request{Mode: "runjava", JDK: j, MemoryBytes: size.GiB, CPUs: 1, UserOptions: user})
	if err != nil || strings.Join(rj.Options, " ") != "-Dapp=1 -XX:+ExitOnOutOfMemoryError" {
		t.Fatalf("runjava: %q %v; want JAVA_OPTIONS first, then ExitOnOutOfMemoryError", rj.Options, err)
	}
	if _, err := Resolve(Request{Mode: "paketo", JDK: j, MemoryBytes: size.GiB, CPUs: 1}); err == nil || !strings.Contains(err.Error(), "--jvm paketo") {
		t.Fatalf("paketo without a jar: %v", err)
	}
}

func xmxOf(opts []string) string {
	for _, o := range opts {
		if strings.HasPrefix(o, "-Xmx") {
			return o
		}
	}
	return ""
}

func TestAppJar(t *testing.T) {
	cases := []struct {
		a    *app.App
		want string
	}{
		{&app.App{Jar: "/x/app.jar"}, "/x/app.jar"},
		{&app.App{Dir: "/d", Command: []string{"${java}", "-Xss1m", "-jar", "target/s.jar", "--port=1"}}, "/d/target/s.jar"},
		{&app.App{Dir: "/d", Command: []string{"java", "-jar", "/abs/s.jar"}}, "/abs/s.jar"},
		{&app.App{Command: []string{"java", "-cp", "x", "Main"}}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got := AppJar(c.a); got != c.want {
			t.Errorf("AppJar(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}
