package docs_test

import (
	"bytes"
	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// A code block the doc shows as a command's output says which command, in a
// marker on the line above it:
//
//	<!-- output stderr: flags --memory 512Mi --cpus 2 -- -Xmx350m -->
//	```
//	jvmfit: warning: at 512Mi, ...
//	```
//
// The block must be exactly what `jvmfit ARGS` prints on that stream today
// (the arguments are split on spaces; the exit status does not matter: a
// refusal is output too).
var outputBlock = regexp.MustCompile("(?s)<!-- output (stdout|stderr): ([^>]+?) -->\n```[a-z]*\n(.*?)\n```")

func TestCommandOutputsInDocs(t *testing.T) {
	needJava(t)
	found := 0
	for _, rel := range allDocs(t) {
		for _, m := range outputBlock.FindAllStringSubmatch(readDoc(t, rel), -1) {
			found++
			stream, args, have := m[1], strings.Fields(m[2]), strings.TrimSpace(m[3])
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(clitest.Bin(), args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run() // a refusal (exit 2) is output like any other
			want := stdout.String()
			if stream == "stderr" {
				want = stderr.String()
			}
			if want = strings.TrimSpace(want); have != want {
				t.Errorf("%s: the %s of `jvmfit %s` is not what the doc shows:\ndoc:\n%s\njvmfit:\n%s", rel, stream, m[2], have, want)
			}
		}
	}
	if found == 0 {
		t.Fatal("no <!-- output STREAM: ARGS --> block in the docs")
	}
}
