package launch

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

func TestIsCommand(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "start.sh")
	plain := filepath.Join(dir, "notes.txt")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(plain, []byte("x"), 0o644)
	for a, want := range map[string]bool{
		script: true, "sh": true, // a path, or a program on PATH
		plain: false, "/usr/bin/java": false, "java": false, "-jar": false, "app.jar": false, "Prog.java": false,
		"com.example.Main": false, filepath.Join(dir, "missing"): false,
	} {
		if got := IsCommand(a); got != want {
			t.Errorf("IsCommand(%q) = %v, want %v", a, got, want)
		}
	}
}

// A start script's java gets the plan through JDK_JAVA_OPTIONS, in front
// of the user's own (so theirs win), and is planned around JAVA_OPTS.
func TestScriptEnviron(t *testing.T) {
	p := &plan.Plan{Options: []string{"-XX:+UseSerialGC", "-Xss512k"}, Env: map[string]string{"MALLOC_ARENA_MAX": "2"}}
	got := ScriptEnviron([]string{"A=b", "JDK_JAVA_OPTIONS=-Xss1m"}, p, 17)
	want := []string{"A=b", "JDK_JAVA_OPTIONS=-XX:+UseSerialGC -Xss512k -Xss1m", "MALLOC_ARENA_MAX=2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JDK 17: %q, want %q", got, want)
	}
	got = ScriptEnviron([]string{"A=b"}, p, 8)
	want = []string{"A=b", "MALLOC_ARENA_MAX=2", "JAVA_TOOL_OPTIONS=-XX:+UseSerialGC -Xss512k"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JDK 8: %q, want %q", got, want)
	}
	vars := map[string]string{"JAVA_OPTS": "-Xmx300m", "JAVA_TOOL_OPTIONS": "-XX:+UseG1GC"}
	e, err := ReadEnv(func(k string) string { return vars[k] })
	script, serr := e.ScriptOptions()
	if err != nil || serr != nil || !reflect.DeepEqual(script, []string{"-XX:+UseG1GC", "-Xmx300m"}) {
		t.Errorf("script options %q %v %v", script, err, serr)
	}
	if own, _ := e.UserOptions(nil); reflect.DeepEqual(own, script) {
		t.Error("JAVA_OPTS counted for java itself, which does not read it")
	}
}
