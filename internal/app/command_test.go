package app

import "testing"

// The forms each reader of -jar had to take (a descriptor's command,
// init's --command split on blanks, an image's entrypoint and command),
// read by the one rule.
func TestCommandJar(t *testing.T) {
	cases := []struct {
		name string
		argv []string
		want string
	}{
		{"plain", []string{"java", "-jar", "x.jar"}, "x.jar"},
		{"options before -jar", []string{"java", "-Xss1m", "-XX:+UseSerialGC", "-Dx=a b", "-jar", "target/s.jar", "--port=1"}, "target/s.jar"},
		{"descriptor placeholders", []string{"${java}", "${jvm_options}", "-jar", "app.jar", "--server.port=${port}"}, "app.jar"},
		{"java by path", []string{"/opt/java/openjdk/bin/java", "-jar", "/app/app.jar"}, "/app/app.jar"},
		{"a valued option's value is no main class", []string{"java", "-cp", "lib/*", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-jar", "a.jar"}, "a.jar"},
		{"-jar after the main class is the app's", []string{"java", "-cp", "x", "com.example.Main", "-jar", "y.jar"}, ""},
		{"a module's main", []string{"java", "-m", "app/com.example.Main", "-jar", "y.jar"}, ""},
		{"-jar= is no option java takes", []string{"java", "-jar=x.jar"}, ""},
		{"--jar is no option java takes", []string{"java", "--jar", "x.jar"}, ""},
		{"-jar with nothing after it", []string{"java", "-Xmx1g", "-jar"}, ""},
		{"no -jar", []string{"java", "-cp", "x", "Main"}, ""},
		{"behind a wrapper", []string{"/usr/bin/tini", "--", "java", "-jar", "/app.jar"}, "/app.jar"},
		{"no java word: the first -jar", []string{"./start", "-jar", "s.jar"}, "s.jar"},
		{"shell form", []string{"/bin/sh", "-c", "exec java -jar /app.jar"}, "/app.jar"},
		{"shell form, single-quoted path with a blank", []string{"sh", "-c", "exec java $JAVA_OPTS -jar '/opt/my app/app.jar' \"$@\""}, "/opt/my app/app.jar"},
		{"shell form, double-quoted path", []string{"bash", "-lc", `cd /srv && exec "$JAVA_HOME/bin/java" -Dx="a b" -jar "/srv/s p.jar"`}, "/srv/s p.jar"},
		{"shell form, escaped blank", []string{"sh", "-c", `java -jar /a\ b.jar`}, "/a b.jar"},
		{"shell form, the first command that runs java (a jar named by a command's output is not known here)", []string{"sh", "-c", "echo starting; java -jar $(ls /app/*.jar | head -1) || true; java -jar /fallback.jar"}, "$(...)"},
		{"shell form, a main class", []string{"sh", "-c", "exec java -cp '/app/lib/*' com.example.Main -jar x.jar"}, ""},
		{"shell form that does not parse", []string{"sh", "-c", "exec java -jar 'open"}, ""},
		{"a nested shell", []string{"sh", "-c", `su app -c "java -jar /home/app/a.jar"`}, "/home/app/a.jar"},
		{"an image's entrypoint and command", []string{"java", "-XX:MaxRAMPercentage=75", "-jar", "/app/quarkus-run.jar"}, "/app/quarkus-run.jar"},
		{"empty", nil, ""},
	}
	for _, c := range cases {
		if got := CommandJar(c.argv); got != c.want {
			t.Errorf("%s: CommandJar(%q) = %q, want %q", c.name, c.argv, got, c.want)
		}
	}
}
