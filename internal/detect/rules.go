package detect

import (
	"bufio"
	"strings"
)

// rule recognises one framework and knows its wiring.
type rule struct {
	framework Framework
	match     func(*jar) (evidence string, ok bool)
	version   func(*jar) string
	wiring    func(*jar) Wiring
}

// rules are tried in order; the first match wins. Plain comes last: every
// framework's jar has a main class too.
var rules = []rule{
	{SpringBoot, springMatch, springVersion, springWiring},
	{Quarkus, quarkusMatch, quarkusVersion, quarkusWiring},
	{Micronaut, micronautMatch, micronautVersion, micronautWiring},
	{Helidon, helidonMatch, helidonVersion, helidonWiring},
	{Plain, plainMatch, func(*jar) string { return "" }, plainWiring},
}

// guessedReady is the readiness guess when the framework's health module
// is not in the jar: its root, which may well not answer 2xx.
func guessedReady(w *Wiring, why string) {
	w.Ready, w.ReadyStatus, w.Sample = "/", 200, "/"
	w.Guessed = append(w.Guessed, "the readiness URL: "+why+"; set ready: to a URL that answers 2xx once the app serves")
}

func springMatch(j *jar) (string, bool) {
	switch {
	case j.manifest["spring-boot-version"] != "":
		return "manifest Spring-Boot-Version " + j.manifest["spring-boot-version"], true
	case strings.HasPrefix(j.mainClass, "org.springframework.boot.loader."):
		return "Main-Class " + j.mainClass, true
	case j.entries["org/springframework/boot/SpringApplication.class"]:
		return "org/springframework/boot/SpringApplication.class in the jar", true
	}
	if l := j.lib("spring-boot-3", "spring-boot-2", "spring-boot-4"); l != "" {
		return "dependency " + l, true
	}
	return "", false
}

func springVersion(j *jar) string {
	if v := j.manifest["spring-boot-version"]; v != "" {
		return v
	}
	return versionOfLib(j, "spring-boot-")
}

func springWiring(j *jar) Wiring {
	w := Wiring{Args: []string{"--server.port=${port}"}}
	if j.lib("spring-boot-actuator-") != "" || j.hasPrefix("org/springframework/boot/actuate/") {
		w.Ready, w.ReadyStatus, w.Sample = "/actuator/health", 200, "/actuator/health"
	} else {
		guessedReady(&w, "no Spring Boot Actuator in the jar (spring-boot-starter-actuator gives /actuator/health)")
	}
	return w
}

const quarkusMain = "io.quarkus.bootstrap.runner.QuarkusEntryPoint"

func quarkusMatch(j *jar) (string, bool) {
	switch {
	case j.mainClass == quarkusMain && j.lib("io.quarkus.quarkus-core-") != "":
		return "Main-Class " + quarkusMain + " with lib/ beside the jar", true
	case j.mainClass == quarkusMain:
		// An uber-jar has Quarkus inside; a fast-jar without its lib/
		// cannot start, which the caller says.
		return "Main-Class " + quarkusMain, true
	case j.hasPrefix("io/quarkus/runtime/"):
		return "io/quarkus/runtime/ in the jar", true
	}
	// The legacy runner jar: its Class-Path names lib/io.quarkus.*.jar.
	if l := j.lib("io.quarkus.quarkus-core-"); l != "" {
		return "dependency " + l, true
	}
	return "", false
}

func quarkusVersion(j *jar) string {
	if v := versionOfLib(j, "io.quarkus.quarkus-core-"); v != "" {
		return v
	}
	return pomVersion(j, "io.quarkus", "quarkus-core")
}

func quarkusWiring(j *jar) Wiring {
	w := Wiring{Env: map[string]string{"QUARKUS_HTTP_PORT": "${port}"}}
	if j.lib("io.quarkus.quarkus-smallrye-health-") != "" || j.hasPrefix("io/quarkus/smallrye/health/") {
		w.Ready, w.ReadyStatus, w.Sample = "/q/health/ready", 200, "/q/health"
	} else {
		guessedReady(&w, "no SmallRye Health in the jar (quarkus-smallrye-health gives /q/health/ready)")
	}
	return w
}

func micronautMatch(j *jar) (string, bool) {
	if j.entries["io/micronaut/runtime/Micronaut.class"] {
		return "io/micronaut/runtime/Micronaut.class in the jar", true
	}
	if l := j.lib("micronaut-runtime-", "micronaut-http-server-"); l != "" {
		return "dependency " + l, true
	}
	return "", false
}

func micronautVersion(j *jar) string {
	// micronaut-core carries micronaut-version.properties at its root,
	// which a shaded jar keeps.
	if v := property(j, "micronaut-version.properties", "micronaut.version"); v != "" {
		return v
	}
	return versionOfLib(j, "micronaut-core-")
}

func micronautWiring(j *jar) Wiring {
	w := Wiring{Env: map[string]string{"MICRONAUT_SERVER_PORT": "${port}"}}
	if j.hasPrefix("io/micronaut/management/") || j.lib("micronaut-management-") != "" {
		w.Ready, w.ReadyStatus, w.Sample = "/health", 200, "/health"
	} else {
		guessedReady(&w, "no micronaut-management in the jar (it gives /health)")
	}
	return w
}

func helidonMatch(j *jar) (string, bool) {
	if l := j.lib("helidon-webserver-", "helidon-microprofile-"); l != "" {
		return "dependency " + l, true
	}
	if j.hasPrefix("io/helidon/webserver/") {
		return "io/helidon/webserver/ in the jar", true
	}
	return "", false
}

func helidonVersion(j *jar) string {
	if v := versionOfLib(j, "helidon-webserver-"); v != "" {
		return v
	}
	return pomVersion(j, "io.helidon.webserver", "helidon-webserver")
}

func helidonWiring(j *jar) Wiring {
	// Helidon's configuration reads SERVER_PORT as server.port.
	w := Wiring{Env: map[string]string{"SERVER_PORT": "${port}"}}
	switch {
	case j.lib("helidon-microprofile-") != "":
		w.Ready, w.ReadyStatus, w.Sample = "/health/ready", 200, "/health"
	case j.lib("helidon-webserver-observe-health-") != "" || j.hasPrefix("io/helidon/webserver/observe/health/"):
		w.Ready, w.ReadyStatus, w.Sample = "/observe/health", 204, "/observe/health"
	default:
		guessedReady(&w, "no helidon-webserver-observe-health in the jar (it gives /observe/health)")
	}
	return w
}

// versionOfLib is the version in the name of the first dependency jar
// named prefix + version.
func versionOfLib(j *jar, prefix string) string {
	for _, l := range j.libs {
		if v := libVersion(l, prefix); v != "" {
			return v
		}
	}
	return ""
}

// pomVersion reads a shaded dependency's Maven pom.properties.
func pomVersion(j *jar, group, artifact string) string {
	return property(j, "META-INF/maven/"+group+"/"+artifact+"/pom.properties", "version")
}

// property is key's value in the properties file at name in the jar.
func property(j *jar, name, key string) string {
	f, err := j.files.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+"="); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
