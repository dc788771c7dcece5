package tune

import (
	"path/filepath"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// tune reads the knobs from the jar the descriptor runs: its jar:, or the
// -jar of its command (relative to its directory); none for an image or
// a command whose jar is a placeholder.
func TestAppPools(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "..", "workloads"))
	spring := filepath.Join(root, "greet-spring", "target", "greet-spring.jar")
	prereq.Built(t, spring)
	for _, c := range []struct {
		name  string
		a     *app.App
		first string
	}{
		{"jar", &app.App{Jar: spring}, "server.tomcat.threads.max"},
		{"command", &app.App{Dir: root, Command: []string{"${java}", "${jvm_options}", "-jar", "greet-spring/target/greet-spring.jar"}}, "server.tomcat.threads.max"},
		{"placeholder", &app.App{Command: []string{"${java}", "-jar", "${jar}"}}, ""},
		{"image", &app.App{Image: "greet:1", Jar: spring}, ""},
		{"no jar", &app.App{Command: []string{"java", "-cp", "x", "a.Main"}}, ""},
		// The user's own settings stay theirs.
		{"own -D", &app.App{Jar: spring, JVMOptions: []string{"-Dserver.tomcat.threads.max=50"}}, "server.tomcat.threads.min-spare"},
		{"own arg", &app.App{Jar: spring, Args: []string{"--server.port=${port}", "--server.tomcat.threads.max=50"}}, "server.tomcat.threads.min-spare"},
		{"own env", &app.App{Jar: spring, Env: map[string]string{"SERVER_TOMCAT_THREADS_MAX": "50", "SERVER_TOMCAT_THREADS_MINSPARE": "5"}}, ""},
	} {
		got := AppPools(c.a)
		if c.first == "" && got != nil || c.first != "" && (len(got) == 0 || got[0].Property != c.first) {
			t.Errorf("%s: %+v; want first %q", c.name, got, c.first)
		}
	}
}
