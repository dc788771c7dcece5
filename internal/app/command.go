package app

import (
	"io"
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// CommandJar is the jar a command line runs: the word after java's -jar,
// "" if it runs none. It is the one reading of that word, for a
// descriptor's command, init's --command and an image's entrypoint.
//
// It reads java's options as java does: -jar is its own word ("-jar=x.jar"
// and "--jar" are errors to java), it comes before the main class (a -jar
// after "com.example.Main" is the app's argument), and an option's value
// (-cp x) is no main class. A word with blanks in it before java is a
// shell's script (sh -c "exec java -jar '/my app/app.jar'"): it is read as
// the shell reads it, quotes and escapes honoured, variables left as
// written. A command with no java word in it keeps the plain rule: the
// word after its first -jar.
func CommandJar(argv []string) string {
	for i, w := range argv {
		if isJava(w) {
			return javaJar(argv[i+1:])
		}
		if strings.ContainsAny(w, " \t\n") {
			if jar := scriptJar(w); jar != "" {
				return jar
			}
		}
	}
	for i, w := range argv {
		if w == "-jar" && i+1 < len(argv) {
			return argv[i+1]
		}
	}
	return ""
}

// isJava is a word that starts a JVM: java by any path, or the trial's
// ${java}.
func isJava(w string) bool {
	return w == "${java}" || path.Base(w) == "java"
}

// javaValued are java's options whose value is the next word.
var javaValued = map[string]bool{
	"-cp": true, "-classpath": true, "--class-path": true,
	"-p": true, "--module-path": true, "--upgrade-module-path": true,
	"--add-modules": true, "--limit-modules": true, "--enable-native-access": true,
	"--add-reads": true, "--add-exports": true, "--add-opens": true,
	"--patch-module": true, "--source": true,
}

// javaJar reads the words after java up to its main class.
func javaJar(opts []string) string {
	for i := 0; i < len(opts); i++ {
		w := opts[i]
		switch {
		case w == "-jar":
			if i+1 < len(opts) {
				return opts[i+1]
			}
			return ""
		case javaValued[w]:
			i++
		case w == "-m" || w == "--module" || strings.HasPrefix(w, "--module="):
			return "" // a module's main class, no jar
		case strings.HasPrefix(w, "-"), strings.HasPrefix(w, "@"), strings.HasPrefix(w, "$"):
			// an option, an @argfile, or a variable holding options
			// (${jvm_options}, $JAVA_OPTS): none names the main class
		default:
			return "" // the main class: what follows is the app's
		}
	}
	return ""
}

// scriptJar is the jar the first command of a shell script that runs one
// runs; "" if the script does not parse or none does.
func scriptJar(script string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return ""
	}
	cfg := &expand.Config{
		// Variables stay as written, so $JAVA_OPTS still reads as options
		// and $JAVA_HOME/bin/java as java (IFS, which splits the words,
		// is the shell's default); nothing is run and no path is globbed
		// (ReadDir2 is nil).
		Env: expand.FuncEnviron(func(name string) string {
			if name == "IFS" {
				return " \t\n"
			}
			return "${" + name + "}"
		}),
		CmdSubst: func(w io.Writer, _ *syntax.CmdSubst) error {
			_, err := io.WriteString(w, "$(...)")
			return err
		},
	}
	jar := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || jar != "" {
			return jar == ""
		}
		var words []string
		for _, a := range call.Args {
			ws, err := expand.Fields(cfg, a)
			if err != nil {
				ws = []string{"$(...)"} // a form not expanded here: no jar in it
			}
			words = append(words, ws...)
		}
		jar = CommandJar(words)
		return jar == ""
	})
	return jar
}
