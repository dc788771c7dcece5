package launch

import (
	"reflect"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

func TestSplitOptions(t *testing.T) {
	got, err := SplitOptions(` -Xmx1g  -Dname="a b" '-Dq=it''s' -XX:+UseG1GC`)
	want := []string{"-Xmx1g", "-Dname=a b", "-Dq=its", "-XX:+UseG1GC"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q %v", got, err)
	}
	if _, err := SplitOptions(`-D"x`); err == nil {
		t.Fatal("unterminated quote accepted")
	}
}

func TestSplitArgs(t *testing.T) {
	opts, main := SplitArgs([]string{"-Xss1m", "-cp", "a.jar", "-Dx=1", "com.Main", "-Xmx9g"})
	if !main || !reflect.DeepEqual(opts, []string{"-Xss1m", "-Dx=1"}) {
		t.Fatalf("got %q %v", opts, main)
	}
	if _, main := SplitArgs([]string{"-Xmx1g"}); main {
		t.Fatal("no main reported as main")
	}
}

func TestReadEnv(t *testing.T) {
	vars := map[string]string{"JAVA_OPTIONS": "-Xss1m", "JAVA_TOOL_OPTIONS": "-XX:+UseG1GC", "JDK_JAVA_OPTIONS": "-Dx=1",
		"JAVA_MAX_MEM_RATIO": "60", "JAVA_INIT_MEM_RATIO": "10", "JAVA_APP_JAR": "/app.jar", "JVMFIT_DISABLE": "1"}
	e, err := ReadEnv(func(k string) string { return vars[k] })
	if err != nil || e.MaxMemRatio != 60 || e.InitMemRatio != 10 || !e.Disabled || e.AppJar != "/app.jar" {
		t.Fatalf("got %+v %v", e, err)
	}
	if got, err := e.UserOptions([]string{"-Xmx1g", "-jar", "x.jar", "-Xmx2g"}); err != nil || !reflect.DeepEqual(got, []string{"-XX:+UseG1GC", "-Dx=1", "-Xss1m", "-Xmx1g"}) {
		t.Fatalf("user options %q %v", got, err)
	}
	for k, v := range map[string]string{"JAVA_MAX_MEM_RATIO": "0", "JAVA_INIT_MEM_RATIO": "abc", "JAVA_OPTIONS": `"`, "JAVA_TOOL_OPTIONS": `-Dx="a`, "_JAVA_OPTIONS": `'`} {
		_, err := ReadEnv(func(n string) string {
			if n == k {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
}

func TestArgvOrderAndMain(t *testing.T) {
	p := &plan.Plan{Options: []string{"-Xmx100m"}, Env: map[string]string{"MALLOC_ARENA_MAX": "2"}}
	env := Env{JavaOptions: []string{"-Xss1m"}, AppJar: "/app.jar"}
	argv, err := Argv("/j/java", p, env, []string{"-Dx=1"})
	if err != nil || !reflect.DeepEqual(argv, []string{"/j/java", "-Xmx100m", "-Xss1m", "-Dx=1", "-jar", "/app.jar"}) {
		t.Fatalf("argv %q %v", argv, err)
	}
	argv, _ = Argv("/j/java", p, Env{MainClass: "a.Main"}, nil)
	if argv[len(argv)-1] != "a.Main" {
		t.Fatalf("main class: %q", argv)
	}
	if _, err := Argv("/j/java", p, Env{}, nil); err == nil {
		t.Fatal("nothing to run accepted")
	}
	envs := Environ([]string{"MALLOC_ARENA_MAX=4", "A=b"}, p)
	if len(envs) != 2 {
		t.Fatalf("user's MALLOC_ARENA_MAX overridden: %q", envs)
	}
	if envs = Environ([]string{"A=b"}, p); envs[1] != "MALLOC_ARENA_MAX=2" {
		t.Fatalf("plan env not added: %q", envs)
	}
}
