package detect

import (
	"reflect"
	"strings"
	"testing"
)

// java.util.Properties' rules: each separator, comments, continuations,
// escapes, and the last of a repeated key.
func TestReadProperties(t *testing.T) {
	in := "# a comment\n" +
		"! another\n" +
		"  server.port = 8081\n" +
		"a:b\n" +
		"spaced value with spaces\n" +
		"colon\\:key=1\n" +
		"cont=one, \\\n" +
		"     two\n" +
		"trailing=\\\\\n" +
		"unicode=caf\\u00e9\n" +
		"tab=a\\tb\n" +
		"empty=\n" +
		"bare\n" +
		"server.port=8082\r\n" +
		"last=\\\n"
	got, err := ReadProperties(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"server.port": "8082", "a": "b", "spaced": "value with spaces", "colon:key": "1",
		"cont": "one, two", "trailing": `\`, "unicode": "café", "tab": "a\tb", "empty": "", "bare": "", "last": "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestReadYAMLFlattensAndSkipsOtherProfiles(t *testing.T) {
	in := `server:
  servlet:
    context-path: /greet
management:
  server: {port: 8081}
  endpoints.web.base-path: /manage
server.sockets:
  - name: admin
    port: 8082
---
spring.config.activate.on-profile: prod
server.servlet.context-path: /prod
---
spring:
  config.activate.on-profile: default
management.server.port: 9001
`
	got, err := ReadYAML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"server.servlet.context-path": "/greet", "management.server.port": "9001",
		"management.endpoints.web.base-path": "/manage", "server.sockets[0].name": "admin", "server.sockets[0].port": "8082",
	} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (all: %q)", k, got[k], v, got)
		}
	}
}

func TestReadYAMLMalformedIsOneLine(t *testing.T) {
	_, err := ReadYAML(strings.NewReader("server:\n  port: 1\n bad: [\n"))
	if err == nil || strings.Contains(err.Error(), "\n") || strings.HasPrefix(err.Error(), "yaml:") {
		t.Errorf("%v", err)
	}
}
