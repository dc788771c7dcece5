package detect

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// maxConfig bounds what is read of one configuration file in a jar.
const maxConfig = 1 << 20

// ReadProperties parses a Java .properties file as java.util.Properties
// does: a key ends at the first unescaped '=', ':' or white space; a line
// starting with '#' or '!' is a comment; a line ending in an odd number of
// backslashes continues on the next (its leading white space dropped);
// \t \n \r \f \uXXXX and \<any> are escapes. A later key wins.
func ReadProperties(r io.Reader) (map[string]string, error) {
	m := map[string]string{}
	sc := bufio.NewScanner(io.LimitReader(r, maxConfig))
	sc.Buffer(make([]byte, 64<<10), maxConfig)
	var logical strings.Builder
	continuing := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if continuing {
			line = strings.TrimLeft(line, " \t\f")
		} else {
			line = strings.TrimLeft(line, " \t\f")
			if line == "" || line[0] == '#' || line[0] == '!' {
				continue
			}
		}
		if trailingBackslashes(line)%2 == 1 {
			logical.WriteString(line[:len(line)-1])
			continuing = true
			continue
		}
		logical.WriteString(line)
		continuing = false
		k, v := splitProperty(logical.String())
		logical.Reset()
		m[k] = v
	}
	if continuing && logical.Len() > 0 {
		k, v := splitProperty(logical.String())
		m[k] = v
	}
	return m, sc.Err()
}

func trailingBackslashes(s string) int {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n
}

// splitProperty cuts one logical line into its key and value, unescaped.
func splitProperty(line string) (string, string) {
	i := 0
	for i < len(line) {
		c := line[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	key := line[:min(i, len(line))]
	rest := line[min(i, len(line)):]
	// The separator: white space, then at most one '=' or ':', then
	// white space.
	rest = strings.TrimLeft(rest, " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	return unescape(key), unescape(rest)
}

func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+4 < len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i += 4
					continue
				}
			}
			b.WriteByte('u')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
