package launch

import (
	"fmt"
	"os"
	"strings"
)

// The java launcher (9+) expands @argfiles itself, before the JVM sees any
// option: the facts, from src/java.base/share/native/libjli/args.c
// (JLI_PreprocessArg, checkArg, expandArgFile, readArgFile, nextToken):
//
//   - An argument "@path" is replaced by the words of the file at path
//     (relative to the working directory); "@@x" is the argument "@x"; "@"
//     alone is itself. The file's words are not expanded again (an "@x"
//     among them is a plain argument).
//   - Expansion stops at the main class (the first argument that is not an
//     option nor the value of one; -jar, -m and --module make the next one
//     the main; --module=x is one), and after --disable-@files. What
//     follows the main is the application's, never expanded.
//   - An argfile that cannot be opened is an error, and java does not start.
//
// Within a file (nextToken): words are separated by space, \t, \f, \n and
// \r (not \v). A ' or " opens a quote, in or at the start of a word, that
// the same character closes; within it whitespace and # are plain, a line
// end ends the word (an open quote stops there), and a backslash escapes:
// \n \r \t \f are those characters, \ before a line end joins the next line
// with its leading whitespace dropped, and before any other character is
// that character. Outside a quote a backslash is plain, and # starts a
// comment to the end of the line, dropping what the word had read since
// its last quote. A quote still open at the end of the file is closed.

// argFileWords splits an argfile's text into the launcher's arguments.
func argFileWords(text string) []string {
	const (
		findNext = iota
		inToken
		inQuote
		inEscape
		inComment
		skipLeadWS // after a \-newline in a quote: drop the next line's indent
	)
	var words []string
	var parts strings.Builder // the word's pieces before anchor
	hasParts := false
	state, anchor := findNext, 0
	var quote byte
	piece := func(end int) {
		parts.WriteString(text[anchor:end])
		hasParts = true
	}
	word := func(end int) {
		words = append(words, parts.String()+text[anchor:end])
		parts.Reset()
		hasParts = false
		state = findNext
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch state {
		case findNext, skipLeadWS:
			if c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r' {
				continue
			}
			if state == findNext {
				state = inToken
			} else {
				state = inQuote
			}
			anchor = i // and c is read below, as the word's first character
		case inEscape:
			if c == '\n' || c == '\r' {
				state = skipLeadWS
			} else {
				parts.WriteByte(unescapeArgFile(c))
				hasParts = true
				state = inQuote
			}
			anchor = i + 1
			continue
		case inComment:
			if c == '\n' || c == '\r' {
				state = findNext
				anchor = i + 1
			}
			continue
		}
		switch c {
		case ' ', '\t', '\f':
			if state != inQuote {
				word(i)
			}
		case '\n', '\r':
			word(i)
		case '#':
			if state != inQuote {
				state, anchor = inComment, i+1
			}
		case '\\':
			if state == inQuote {
				piece(i)
				state, anchor = inEscape, i+1
			}
		case '\'', '"':
			if state == inQuote && c != quote {
				continue
			}
			if anchor != i {
				piece(i)
			}
			anchor = i + 1
			if state == inToken {
				state, quote = inQuote, c
			} else {
				state = inToken
			}
		}
	}
	if state == inToken || state == inQuote {
		if anchor < len(text) {
			piece(len(text))
		}
		if hasParts {
			words = append(words, parts.String())
		}
	}
	return words
}

func unescapeArgFile(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'f':
		return '\f'
	}
	return c
}

// launcherArgs is the java launcher's expansion of its arguments: the
// state checkArg keeps across JDK_JAVA_OPTIONS and the command line.
type launcherArgs struct {
	stopped     bool // --disable-@files seen
	mainFound   bool // the main class, jar or module is known: the rest is the app's
	expectValue bool // the last option takes the next argument as its value
}

// expand returns the arguments a stands for: the words of an @argfile, or
// a itself.
func (l *launcherArgs) expand(a string) ([]string, error) {
	if l.mainFound {
		return []string{a}, nil
	}
	if l.stopped || !strings.HasPrefix(a, "@") || a == "@" {
		l.check(a)
		return []string{a}, nil
	}
	if strings.HasPrefix(a, "@@") {
		l.check(a[1:])
		return []string{a[1:]}, nil
	}
	b, err := os.ReadFile(a[1:])
	if err != nil {
		return nil, fmt.Errorf("argument file %s: %w (java cannot start without it either)", a, err)
	}
	words := argFileWords(string(b))
	for _, w := range words {
		l.check(w)
	}
	return words, nil
}

// check follows one argument, as checkArg does, to find where the main is.
func (l *launcherArgs) check(a string) {
	if l.mainFound {
		return
	}
	if !strings.HasPrefix(a, "-") {
		l.mainFound = !l.expectValue
		l.expectValue = false
		return
	}
	l.expectValue = false
	switch {
	case a == "-jar" || a == "-m" || a == "--module":
		// the next argument that is not an option is the main
	case takesValue[a]:
		l.expectValue = true
	case a == "--disable-@files":
		l.stopped = true
	case strings.HasPrefix(a, "--module="):
		l.mainFound = true
	}
}

// LauncherArgs is what the java launcher hands on for JDK_JAVA_OPTIONS
// (jdkOptions) and the command line's arguments: each split and its
// @argfiles expanded as above, JDK_JAVA_OPTIONS' words first.
func LauncherArgs(jdkOptions string, args []string) (fromEnv, fromArgs []string, err error) {
	var l launcherArgs
	words, err := SplitVMOptions("JDK_JAVA_OPTIONS", jdkOptions)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range words {
		ws, err := l.expand(w)
		if err != nil {
			return nil, nil, fmt.Errorf("JDK_JAVA_OPTIONS: %w", err)
		}
		fromEnv = append(fromEnv, ws...)
	}
	for _, a := range args {
		ws, err := l.expand(a)
		if err != nil {
			return nil, nil, err
		}
		fromArgs = append(fromArgs, ws...)
	}
	return fromEnv, fromArgs, nil
}
