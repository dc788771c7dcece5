package launch

import "strings"

// javaLongOptions are the java launcher's own "--" options (java --help
// and --help-extra, JDK 11 to 25). `jvmfit exec` ends its own flags at
// one of them, and refuses any other unknown "--" word as a typo of its
// own flags (--memroy) rather than handing it to java.
var javaLongOptions = map[string]bool{
	"--add-exports": true, "--add-modules": true, "--add-opens": true, "--add-reads": true,
	"--class-path": true, "--describe-module": true, "--disable-@files": true, "--dry-run": true,
	"--enable-native-access": true, "--enable-preview": true, "--finalization": true, "--help-extra": true,
	"--illegal-access": true, "--illegal-native-access": true, "--limit-modules": true, "--list-modules": true,
	"--module": true, "--module-path": true, "--patch-module": true, "--show-module-resolution": true,
	"--show-version": true, "--source": true, "--sun-misc-unsafe-memory-access": true,
	"--upgrade-module-path": true, "--validate-modules": true, "--version": true,
	"--enable-final-field-mutation": true,
}

// IsJavaLongOption reports whether a ("--name" or "--name=value") is one
// of the java launcher's own "--" options.
func IsJavaLongOption(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	return javaLongOptions[name]
}
