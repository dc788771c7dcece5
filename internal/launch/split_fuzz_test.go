package launch

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

const java17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"

// FuzzExecSplit holds jvmfit's reading of an options string against
// HotSpot's own, read back with -XX:+PrintFlagsFinal from JDK 17, for each
// of the three places the string can be: JAVA_TOOL_OPTIONS (the JVM's
// split, SplitVMOptions), JDK_JAVA_OPTIONS (the launcher's, LauncherArgs)
// and an @argfile (argFileWords). Where jvmfit refuses the string (an
// unmatched quote), java must too; where java starts, the heap and the
// ErrorFile it ends with must be those of the last -Xmx/MaxHeapSize and
// -XX:ErrorFile among jvmfit's words; and where jvmfit's words are all
// options java takes, java must start. The seed corpus (plain go test)
// is a few dozen strings of such options quoted every way HotSpot allows,
// and some ways it does not.
func FuzzExecSplit(f *testing.F) {
	r := rand.New(rand.NewPCG(36, 6))
	for range 24 {
		f.Add(optionString(r))
	}
	for _, s := range []string{
		`-Xmx64m`, `-Dx=a\ -Xmx32m`, `-XX:ErrorFile="C:\dir\" -Xmx48m`, "-Xmx16m\v-XX:ErrorFile=v",
		`-XX:ErrorFile='a "b" c'`, `-XX:Error"File=a b"`, `-Xmx"8m`, `-XX:ErrorFile="a\"b" -Xmx24m`,
		`-Xmx40m # -Xmx8m`, "-XX:ErrorFile=\"x\\\ny\"", "-Xmx16m#x\n-Dk=y", "'-XX:ErrorFile='e#x\n-Dk=y",
		"-XX:ErrorFile=\"a\\tb\\\n   c\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prereq.Java(t, java17)
		if strings.IndexByte(s, 0) >= 0 || len(s) > 4000 {
			return // not a string an environment or a file of options holds
		}
		dir := t.TempDir()
		file := filepath.Join(dir, "opts")
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		toolWords, toolErr := SplitVMOptions("JAVA_TOOL_OPTIONS", s)
		checkSplit(t, "JAVA_TOOL_OPTIONS", toolWords, toolErr, []string{"JAVA_TOOL_OPTIONS=" + s})
		if words, err := SplitVMOptions("JDK_JAVA_OPTIONS", s); err != nil || launcherTakes(words) {
			words, _, err = LauncherArgs(s, nil)
			checkSplit(t, "JDK_JAVA_OPTIONS", words, err, []string{"JDK_JAVA_OPTIONS=" + s})
		}
		words := argFileWords(s)
		if launcherTakes(words) {
			checkSplit(t, "@argfile", words, nil, nil, "@"+file)
		}
	})
}

// checkSplit runs java with env and args and holds what it ends with
// against words, jvmfit's reading (err: jvmfit refused the string).
func checkSplit(t *testing.T, where string, words []string, err error, env []string, args ...string) {
	t.Helper()
	out, failed := runFlagsFinal(t, env, args...)
	switch {
	case err != nil:
		if failed == "" || !strings.Contains(failed, "nmatched quote") {
			t.Errorf("%s: jvmfit refuses (%v), java says %q", where, err, failed)
		}
		return
	case failed != "" && strings.Contains(failed, "nmatched quote"):
		t.Errorf("%s: java refuses (%s), jvmfit read %q", where, failed, words)
		return
	case failed != "":
		if javaTakes(words) {
			t.Errorf("%s: java failed (%s) on what jvmfit reads as options it takes: %q", where, failed, words)
		}
		return
	case ofOurKinds(words) && !javaTakes(words):
		t.Errorf("%s: java started, jvmfit read words it refuses: %q", where, words)
	}
	// Where jvmfit reads no heap or ErrorFile, java must have none: an
	// option that jvmfit read into another word's value shows here.
	heap, set := lastHeap(words)
	switch _, origin := flagValue(out, "MaxHeapSize"); {
	case !set && origin != "{ergonomic}":
		t.Errorf("%s: java's MaxHeapSize is set (%s), jvmfit read no heap in %q", where, origin, words)
	case heap > 0:
		if got, _ := flagValue(out, "MaxHeapSize"); got != fmt.Sprint(heap) {
			t.Errorf("%s: java's MaxHeapSize %s, jvmfit read %d from %q", where, got, heap, words)
		}
	}
	ef, set := last(words, "-XX:ErrorFile=")
	if got, _ := flagValue(out, "ErrorFile"); (set && printable(ef) && got != ef) || (!set && got != "") {
		t.Errorf("%s: java's ErrorFile %q, jvmfit read %q (set %v) from %q", where, got, ef, set, words)
	}
}

// runFlagsFinal is java's -XX:+PrintFlagsFinal output with env and args,
// or its stderr when it fails (which
// echoes the variable, newlines and all, before the error).
func runFlagsFinal(t *testing.T, env []string, args ...string) (out, failed string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, java17, append(args, "-XX:+PrintFlagsFinal", "-version")...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=", "_JAVA_OPTIONS="}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Sprintf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), ""
}

// flagValue is a flag's value and origin in PrintFlagsFinal output (a
// string flag's value may hold spaces).
func flagValue(out, name string) (value, origin string) {
	re := regexp.MustCompile(`(?m)^\s*\S+\s+` + regexp.QuoteMeta(name) + ` += (.*?)\s+\{[a-z ]+\} (\{[a-z ]+\})$`)
	if m := re.FindStringSubmatch(out); m != nil {
		return m[1], m[2]
	}
	return "", ""
}

// launcherTakes says whether the java launcher passes words on to the
// JVM rather than refusing them in JDK_JAVA_OPTIONS or taking one as the
// main class: options only, no argfile (the fuzzer's "@x" is a file that
// does not exist) and none of the terminal ones.
func launcherTakes(words []string) bool {
	for _, w := range words {
		if !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "@") || w == "-jar" || w == "-m" || w == "-version" ||
			strings.HasPrefix(w, "--") || w == "-h" || w == "-?" || w == "-help" || w == "-X" || w == "-fullversion" {
			return false
		}
	}
	return true
}

// javaTakes says whether every word is an option java starts with
// whatever its value: the kinds optionString makes.
var takenOption = regexp.MustCompile(`^(?s)(-XX:ErrorFile=.*|-Dk(=.*)?|-Xmx[1-9][0-9]*m|-XX:MaxHeapSize=[1-9][0-9]*m)$`)

func javaTakes(words []string) bool {
	return allWords(words, takenOption.MatchString)
}

// ofOurKinds says whether each word is either no option (java refuses
// it) or one of the kinds optionString makes, well formed or not: java
// starts with such words only if javaTakes them.
func ofOurKinds(words []string) bool {
	return allWords(words, func(w string) bool {
		return !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "-Xmx") || strings.HasPrefix(w, "-XX:MaxHeapSize=") ||
			strings.HasPrefix(w, "-XX:ErrorFile=") || strings.HasPrefix(w, "-Dk")
	})
}

func allWords(words []string, ok func(string) bool) bool {
	for _, w := range words {
		if !ok(w) {
			return false
		}
	}
	return true
}

// lastHeap is the heap the last -Xmx or -XX:MaxHeapSize sets, where it is
// one java keeps exactly (a multiple of 8 MiB, from 8 MiB; else 0), and
// whether any sets it.
func lastHeap(words []string) (int64, bool) {
	heap := ""
	for _, w := range words {
		if v, ok := strings.CutPrefix(w, "-Xmx"); ok {
			heap = v
		} else if v, ok := strings.CutPrefix(w, "-XX:MaxHeapSize="); ok {
			heap = v
		}
	}
	set := false
	for _, w := range words {
		set = set || strings.HasPrefix(w, "-Xmx") || strings.HasPrefix(w, "-XX:MaxHeapSize=")
	}
	n, err := size.Parse(heap)
	if err != nil || n < 8*size.MiB || n%(8*size.MiB) != 0 || n > 64*size.GiB {
		return 0, set
	}
	return n, set
}

func last(words []string, prefix string) (string, bool) {
	v, ok := "", false
	for _, w := range words {
		if s, found := strings.CutPrefix(w, prefix); found {
			v, ok = s, true
		}
	}
	return v, ok
}

// printable says whether PrintFlagsFinal's line shows v as it is: one
// line, no padding of its own, no braces.
func printable(v string) bool {
	for _, c := range v {
		if c < ' ' || c > '~' || c == '{' {
			return false
		}
	}
	return v == strings.TrimSpace(v)
}

// optionString is a few options of the kinds java takes (heaps, a path
// with spaces and quotes, a property), each quoted in one of the ways
// HotSpot groups a word, now and then one it does not (a shell's
// backslash, a quote left open), joined by C whitespace.
func optionString(r *rand.Rand) string {
	texts := []string{"a", "b c", `C:\dir\`, `it's`, `say "hi"`, "/tmp/x y", "tab\there", `\`, "%p.log", `n\tx`, "#x"}
	var words []string
	for range 1 + r.IntN(4) {
		var w string
		switch r.IntN(4) {
		case 0:
			w = fmt.Sprintf("-Xmx%dm", 8*(1+r.IntN(32)))
		case 1:
			w = fmt.Sprintf("-XX:MaxHeapSize=%dm", 8*(1+r.IntN(32)))
		case 2:
			w = "-XX:ErrorFile=" + texts[r.IntN(len(texts))] + texts[r.IntN(len(texts))]
		default:
			w = "-Dk=" + texts[r.IntN(len(texts))]
		}
		words = append(words, quoteWord(r, w))
	}
	seps := []string{" ", "  ", "\t", "\n", "\v", "\f", "\r\n", " \t "}
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		b.WriteString(w)
	}
	return b.String()
}

// quoteWord writes w in chunks, each bare, in '...' or in "..." where that
// keeps it whole; one word in eight is written as a shell would (a
// backslash before each space or quote) or with a quote left open.
func quoteWord(r *rand.Rand, w string) string {
	switch r.IntN(8) {
	case 0:
		return strings.NewReplacer(" ", `\ `, `'`, `\'`, `"`, `\"`, "\t", "\\\t").Replace(w)
	case 1:
		return `"` + w
	}
	var b strings.Builder
	for len(w) > 0 {
		n := 1 + r.IntN(len(w))
		chunk := w[:n]
		w = w[n:]
		bare := !strings.ContainsAny(chunk, " \t\n\v\f\r'\"")
		switch q := r.IntN(3); {
		case q == 0 && bare:
			b.WriteString(chunk)
		case q <= 1 && !strings.Contains(chunk, "'"):
			b.WriteString("'" + chunk + "'")
		case !strings.Contains(chunk, `"`):
			b.WriteString(`"` + chunk + `"`)
		case !strings.Contains(chunk, "'"):
			b.WriteString("'" + chunk + "'")
		default: // both quotes: one character at a time
			for _, c := range chunk {
				if c == '\'' {
					b.WriteString(`"'"`)
				} else {
					b.WriteString("'" + string(c) + "'")
				}
			}
		}
	}
	return b.String()
}
