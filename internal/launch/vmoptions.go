package launch

import (
	"fmt"
	"os"
	"strings"
)

// expandVMOptionsFile replaces the -XX:VMOptionsFile=path option of one
// of HotSpot's groups (JAVA_TOOL_OPTIONS, the command line, _JAVA_OPTIONS)
// by the file's options, in place, as
// Arguments::match_special_option_and_act does: so "the last occurrence
// wins" holds across the file and the options around it. The file is
// split as JAVA_TOOL_OPTIONS is (SplitVMOptions). HotSpot refuses a second
// VMOptionsFile in one group and one inside the file; so does this.
func expandVMOptionsFile(group string, opts []string) ([]string, error) {
	var out []string
	seen := ""
	for _, o := range opts {
		path, ok := strings.CutPrefix(o, "-XX:VMOptionsFile=")
		if !ok {
			out = append(out, o)
			continue
		}
		if seen != "" {
			return nil, fmt.Errorf("%s: %s after %s: java refuses a second VM options file in one place", group, o, seen)
		}
		seen = o
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w (java cannot start without it either)", group, o, err)
		}
		inFile, err := SplitVMOptions(path, string(b))
		if err != nil {
			return nil, err
		}
		for _, f := range inFile {
			if strings.HasPrefix(f, "-XX:VMOptionsFile=") {
				return nil, fmt.Errorf("%s: %s names another VM options file (%s): java refuses that", group, o, f)
			}
		}
		out = append(out, inFile...)
	}
	return out, nil
}

// flagsFile is the settings file the last -XX:Flags=path names, scanning
// the groups in HotSpot's order; "" without one. HotSpot reads
// ./.hotspotrc only when -XX:Flags names it (a product build just warns
// that it is there), so no file is read unless named.
func flagsFile(groups ...[]string) string {
	path := ""
	for _, g := range groups {
		for _, o := range g {
			if p, ok := strings.CutPrefix(o, "-XX:Flags="); ok {
				path = p
			}
		}
	}
	return path
}

// settingsFile reads a -XX:Flags settings file as
// Arguments::process_settings_file does, each setting returned as the
// -XX: option it is (the file holds them without the prefix:
// "MaxHeapSize=200m", "+UseSerialGC"). HotSpot applies them before any
// other option, so every other source wins over them. The facts: a # that
// starts a word comments out the rest of its line; a word ends at a line
// end or at whitespace outside a quote; ' or " opens a quote anywhere in a
// word, closed by the same character, the quotes dropped (a line end
// closes it too); no escapes. A word stops at 1023 characters, and the
// file's reading with it.
func settingsFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-XX:Flags=%s: %w (java cannot start without it either)", path, err)
	}
	const maxWord = 1023
	var out []string
	var word []byte
	inWord, inComment, quote := false, false, byte(0)
	flush := func() {
		out = append(out, "-XX:"+string(word))
		word, inWord, quote = word[:0], false, 0
	}
	for _, c := range b {
		if len(word) >= maxWord {
			break
		}
		switch {
		case !inWord && inComment:
			inComment = c != '\n'
		case !inWord && c == '#':
			inComment = true
		case !inWord:
			if !isCSpace(c) {
				inWord = true
				word = append(word, c)
			}
		case c == '\n' || (quote == 0 && isCSpace(c)):
			flush()
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote != 0 && c == quote:
			quote = 0
		default:
			word = append(word, c)
		}
	}
	if len(word) > 0 {
		flush()
	}
	return out, nil
}
