package detect

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// The sample services' real jars, as Maven builds them (make workloads).
func TestWorkloadJars(t *testing.T) {
	root := filepath.Join("..", "..", "workloads")
	for _, c := range []struct {
		jar     string
		want    Framework
		args    []string
		env     map[string]string
		ready   string
		version string
		java    int
	}{
		{"greet-spring/target/greet-spring.jar", SpringBoot, []string{"--server.port=${port}"}, nil, "/actuator/health", "3.5.16", 17},
		{"sort/target/sort.jar", SpringBoot, []string{"--server.port=${port}"}, nil, "/actuator/health", "3.5.16", 17},
		{"greet-quarkus/target/quarkus-app/quarkus-run.jar", Quarkus, nil, map[string]string{"QUARKUS_HTTP_PORT": "${port}"}, "/q/health/ready", "3.33.2", 0},
		{"greet-micronaut/target/greet-micronaut.jar", Micronaut, nil, map[string]string{"MICRONAUT_SERVER_PORT": "${port}"}, "/health", "4.10.15", 17},
		{"greet-helidon/target/greet-helidon.jar", Helidon, nil, map[string]string{"SERVER_PORT": "${port}"}, "/observe/health", "4.5.0", 21},
		{"greet-plain/target/greet-plain.jar", Plain, []string{"--port=${port}"}, nil, "/health", "", 17},
		// The samples that move their paths and ports in their configuration.
		{"greet-spring-ctx/target/greet-spring-ctx.jar", SpringBoot, []string{"--server.port=${port}", "--management.server.port=${management_port}"}, nil, "/manage/health", "3.5.16", 17},
		{"greet-quarkus-mgmt/target/quarkus-app/quarkus-run.jar", Quarkus, nil, map[string]string{"QUARKUS_HTTP_PORT": "${port}", "QUARKUS_MANAGEMENT_PORT": "${management_port}"}, "/q/health/ready", "3.33.2", 0},
	} {
		t.Run(c.jar, func(t *testing.T) {
			jar := filepath.Join(root, c.jar)
			prereq.Built(t, jar)
			r, err := Jar(jar)
			if err != nil {
				t.Fatal(err)
			}
			if r.Framework != c.want || r.Ready != c.ready || r.Version != c.version || r.JavaVersion != c.java || len(r.Guessed) != 0 ||
				!reflect.DeepEqual(r.Args, c.args) || !reflect.DeepEqual(r.Env, c.env) {
				t.Errorf("%s: %+v", c.jar, r)
			}
			t.Logf("%s: %s %s (%s), ready %s", c.jar, r.Framework, r.Version, r.Evidence, r.Ready)
		})
	}
}
