package launch

import (
	"fmt"
	"strings"
)

// How the JDK reads the options a user gives outside java's own command
// line. jvmfit must read them exactly so: an option it misreads is one it
// does not see, and its own option for that region then goes onto java's
// command line and wins over the user's (JAVA_TOOL_OPTIONS and
// JDK_JAVA_OPTIONS come before that command line). The facts, from the
// OpenJDK sources (JDK 17u; the same through 25), checked on JDK 17 by
// FuzzExecSplit and TestExecSplitsLikeHotSpot:
//
//   - JAVA_TOOL_OPTIONS and _JAVA_OPTIONS are read by the JVM
//     (src/hotspot/share/runtime/arguments.cpp,
//     Arguments::parse_options_environment_variable, then
//     Arguments::parse_options_buffer). Words are separated by runs of C
//     isspace() characters (space, \t, \n, \v, \f, \r). A ' or " anywhere
//     in a word opens a quote that runs to the same character, whitespace
//     included; the quote characters are dropped, and quoted and unquoted
//     parts of one word join ("-Dx='a b'c" is -Dx=a bc). There is no
//     escape: a backslash is a plain character, even before a quote. A
//     quote left open is an error ("Unmatched quote in ..."), and java
//     does not start.
//   - The same function splits a -XX:VMOptionsFile=path file
//     (Arguments::parse_vm_options_file).
//   - Arguments::parse reads, in this order, JAVA_TOOL_OPTIONS, the command
//     line, then _JAVA_OPTIONS (Arguments::parse_vm_init_args), the last
//     occurrence of a flag winning: _JAVA_OPTIONS beats the command line.
//     Before them all it reads the settings file -XX:Flags=path names
//     (Arguments::process_settings_file; vmoptions.go). In each of the three
//     (Arguments::match_special_option_and_act) a -XX:VMOptionsFile option
//     is replaced, in place, by the file's options; a second one in the
//     same group, or one inside the file, is an error.
//   - JDK_JAVA_OPTIONS is read by the java launcher, not the JVM
//     (src/java.base/share/native/libjli/args.c, JLI_AddArgsFromEnvVar and
//     expand): words are split on isspace() with the same quotes and no
//     escape, an open quote is an error, and each word is then an argument
//     as on the command line, an @argfile expanded (argfile.go). The words
//     go in front of the command line's arguments, so that a later option
//     on the command line wins over them. A main class, -jar and the other
//     terminal options are refused there.
//
// The backslash, not an escape in any of them, is the difference from a
// shell's words (SplitOptions): `-Dx=a\ -Xmx200m` is two options to java.

// SplitVMOptions splits JAVA_TOOL_OPTIONS, _JAVA_OPTIONS or the text of a
// VMOptionsFile into options as HotSpot does (above). name is the
// variable or file, for the error of an unmatched quote.
func SplitVMOptions(name, s string) ([]string, error) {
	var out []string
	var word strings.Builder
	for i := 0; i < len(s); {
		for i < len(s) && isCSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		word.Reset()
		for i < len(s) && !isCSpace(s[i]) {
			c := s[i]
			i++
			if c != '\'' && c != '"' {
				word.WriteByte(c)
				continue
			}
			end := strings.IndexByte(s[i:], c)
			if end < 0 {
				return nil, fmt.Errorf("unmatched %c quote in %s: java refuses it too", c, name)
			}
			word.WriteString(s[i : i+end])
			i += end + 1
		}
		out = append(out, word.String())
	}
	return out, nil
}

// isCSpace is C's isspace() in the C locale, which HotSpot and the java
// launcher split on.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
