package launcher

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/launch"
)

func TestAppName(t *testing.T) {
	for _, c := range []struct {
		env    launch.Env
		rest   []string
		script bool
		want   string
	}{
		{launch.Env{}, []string{"-Xss1m", "-jar", "/app/orders-1.2.jar", "--port=1"}, false, "orders-1.2"},
		{launch.Env{}, []string{"-cp", "/app/lib", "com.example.Main"}, false, "com.example.Main"},
		{launch.Env{}, []string{"-m", "orders/com.example.Main"}, false, "orders"},
		{launch.Env{}, []string{"Prog.java", "1"}, false, "Prog"},
		{launch.Env{AppJar: "/deployments/app.jar"}, []string{"-Xss1m"}, false, "app"},
		{launch.Env{MainClass: "a.B"}, nil, false, "a.B"},
		{launch.Env{}, []string{"/app/bin/start.sh", "x"}, true, "start.sh"},
		{launch.Env{}, []string{"-version"}, false, ""},
	} {
		if got := appName(c.env, c.rest, c.script); got != c.want {
			t.Errorf("appName(%v) = %q, want %q", c.rest, got, c.want)
		}
	}
}
