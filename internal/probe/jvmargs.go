package probe

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// jvmArgs is what the JVM pid was given, in the order HotSpot applies it:
// JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, then the command line.
func jvmArgs(root string, pid int) []string {
	dir := filepath.Join(procRoot(root), strconv.Itoa(pid))
	var args []string
	env, _ := os.ReadFile(filepath.Join(dir, "environ"))
	for _, name := range []string{"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS="} {
		for _, kv := range strings.Split(string(env), "\x00") {
			if v, ok := strings.CutPrefix(kv, name); ok {
				args = append(args, strings.Fields(v)...)
			}
		}
	}
	cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
	return append(args, strings.Split(string(cmdline), "\x00")...)
}

// archiveFiles are the CDS archives and AOT caches the JVM's options name
// (-XX:SharedArchiveFile=a.jsa[:b.jsa], -XX:AOTCache=FILE), as absolute
// paths: an AOT cache can have any name, so the suffix alone misses it.
func archiveFiles(root string, pid int) map[string]bool {
	cwd, _ := os.Readlink(filepath.Join(procRoot(root), strconv.Itoa(pid), "cwd"))
	out := map[string]bool{}
	for _, arg := range jvmArgs(root, pid) {
		var files []string
		if v, ok := strings.CutPrefix(arg, "-XX:SharedArchiveFile="); ok {
			files = strings.Split(v, string(os.PathListSeparator))
		} else if v, ok := strings.CutPrefix(arg, "-XX:AOTCache="); ok {
			files = []string{v}
		}
		for _, f := range files {
			if f != "" && !filepath.IsAbs(f) && cwd != "" {
				f = filepath.Join(cwd, f)
			}
			if f != "" {
				out[filepath.Clean(f)] = true
			}
		}
	}
	return out
}

// JVMOptions are the -X options (-XX:…, -Xss…, -Xshare:…) the JVM pid
// runs with, from its environment and command line: what a profile taken
// of it was measured under.
func JVMOptions(root string, pid int) []string {
	var opts []string
	for _, a := range jvmArgs(root, pid) {
		if strings.HasPrefix(a, "-X") {
			opts = append(opts, a)
		}
	}
	return opts
}
