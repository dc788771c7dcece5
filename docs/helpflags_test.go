package docs_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// page is one section of a doc page whose tables document a command's flags.
type page struct{ file, heading string }

var (
	launcherFlags   = page{"docs/launcher.md", "## Flags (both commands)"}
	experimentFlags = page{"docs/experiments.md", "## Flags shared by all three"}
	imageFlags      = page{"docs/docker.md", "## Running an image"}
	kubeFlags       = page{"docs/kubernetes.md", "## Flags"}
	emitFlags       = page{"docs/emit.md", "## Flags"}
	recordFlags     = page{"docs/profile-record.md", "## Flags"}
)

// commandPages: where each command's flags are documented. Every flag in a
// table there (first column, or a header that is itself a flag) must be one
// --help lists, and every flag --help lists must be in one of them.
var commandPages = map[string][]page{
	"flags":        {launcherFlags, emitFlags},
	"exec":         {launcherFlags, recordFlags},
	"profile diff": {recordFlags},
	"load":         {{"docs/load.md", "## Flags"}},
	"run": {
		{"docs/run.md", "## The app"}, {"docs/run.md", "## Limits"},
		{"docs/run.md", "## JVM options"}, {"docs/run.md", "## Load and measurement"}, {"docs/run.md", "## Verdict"},
		{"docs/run.md", "## Output, storage, exit status"}, imageFlags,
	},
	"profile": {{"docs/profile.md", "## Flags"}},
	"minmem": {experimentFlags, {"docs/experiments.md", "## `jvmfit minmem`: the smallest memory limit that passes"},
		imageFlags, kubeFlags, emitFlags},
	"sweep":   {experimentFlags, {"docs/experiments.md", "## `jvmfit sweep`: a matrix of trials"}, imageFlags, kubeFlags},
	"compare": {experimentFlags, {"docs/experiments.md", "## `jvmfit compare`: option sets side by side"}, imageFlags, kubeFlags},
	"tune":    {{"docs/tune.md", "# jvmfit tune"}, experimentFlags, imageFlags, kubeFlags, emitFlags},
	"report":  {{"docs/report.md", "## `jvmfit report`"}},
	"doctor":  {{"docs/sandbox.md", "## `jvmfit doctor`"}},
	"init":    {{"docs/your-service.md", "## Flags"}},
}

// commandGroups: what a "commands" column may say instead of names.
var commandGroups = map[string][]string{
	"all five": {"run", "minmem", "sweep", "compare", "tune"},
}

var (
	docFlag  = regexp.MustCompile(`(?:^|[^\w-])(--[a-z][a-z0-9-]*)`)
	helpFlag = regexp.MustCompile(`^\s+(?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)`)
	// "`flags` only", "`flags --style paketo` only": the row is that command's.
	onlyFor = regexp.MustCompile("`([a-z]+)[^`]*` only")
)

// TestHelpFlagsMatchDocs: a flag --help lists and no doc table has, or a doc
// table has and --help does not list, fails, named with its command.
func TestHelpFlagsMatchDocs(t *testing.T) {
	// Every command the root lists must have its pages here.
	for _, name := range listedCommands(jvmfit(t, "--help")) {
		if _, ok := commandPages[name]; !ok {
			t.Errorf("jvmfit %s: no doc page in commandPages; document its flags and add it", name)
		}
	}
	for name, pages := range commandPages {
		text := jvmfit(t, append(strings.Fields(name), "--help")...) // "profile diff": a subcommand
		// The first page is the command's own: --help names it.
		if want := "Reference: " + pages[0].file; !strings.Contains(text, want) {
			t.Errorf("jvmfit %s --help does not say %q: a user reads the flags there first", name, want)
		}
		help := helpFlags(text)
		doc := map[string]string{}
		for _, p := range pages {
			for f := range pageFlags(t, p, name) {
				doc[f] = p.file
			}
		}
		for _, f := range sortedKeys(help) {
			if _, ok := doc[f]; !ok {
				t.Errorf("jvmfit %s: %s is in --help but in no flags table of %s", name, f, pageNames(pages))
			}
		}
		for _, f := range sortedKeys(doc) {
			if !help[f] {
				t.Errorf("jvmfit %s: %s is in %s but not in --help", name, f, doc[f])
			}
		}
	}
}

// helpFlags: the long flags under "Flags:" in a command's --help, but --help.
func helpFlags(help string) map[string]bool {
	out := map[string]bool{}
	in := false
	for _, line := range strings.Split(help, "\n") {
		if strings.HasSuffix(line, "Flags:") {
			in = true
			continue
		}
		if m := helpFlag.FindStringSubmatch(line); in && m != nil && m[1] != "--help" {
			out[m[1]] = true
		}
	}
	return out
}

// listedCommands: the names under "Available Commands:" in the root's help.
func listedCommands(help string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(help, "\n") {
		switch {
		case strings.HasPrefix(line, "Available Commands:"):
			in = true
		case in && strings.TrimSpace(line) == "":
			in = false
		case in:
			name := strings.Fields(line)[0]
			if name != "help" && name != "completion" {
				out = append(out, name)
			}
		}
	}
	return out
}

// pageFlags: the flags the tables of p document for command cmd.
func pageFlags(t *testing.T, p page, cmd string) map[string]bool {
	t.Helper()
	lines, ok := section(readDoc(t, p.file), p.heading)
	if !ok {
		t.Fatalf("%s: no heading %q", p.file, p.heading)
	}
	out := map[string]bool{}
	for _, tb := range tables(lines) {
		cmdCol := -1
		for i, h := range tb.header {
			if h == "commands" {
				cmdCol = i
			}
		}
		for _, f := range docFlag.FindAllStringSubmatch(tb.header[0], -1) {
			out[f[1]] = true
		}
		for _, row := range tb.rows {
			if cmdCol >= 0 && cmdCol < len(row) && !listsCommand(row[cmdCol], cmd) {
				continue
			}
			if !rowIsFor(row, cmd) {
				continue
			}
			for _, f := range docFlag.FindAllStringSubmatch(row[0], -1) {
				out[f[1]] = true
			}
		}
	}
	return out
}

// listsCommand: whether a "commands" cell names cmd.
func listsCommand(cell, cmd string) bool {
	for _, c := range commandGroups[cell] {
		if c == cmd {
			return true
		}
	}
	for _, c := range strings.Split(cell, ",") {
		if strings.TrimSpace(c) == cmd {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func pageNames(pages []page) string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pages {
		if !seen[p.file] {
			seen[p.file] = true
			out = append(out, p.file)
		}
	}
	return strings.Join(out, ", ")
}

// rowIsFor: a row whose text says "`CMD ...` only" for some commands is
// theirs alone; any other row is every command's of the page.
func rowIsFor(row []string, cmd string) bool {
	named := false
	for _, m := range onlyFor.FindAllStringSubmatch(strings.Join(row[1:], " "), -1) {
		if _, isCommand := commandPages[m[1]]; isCommand {
			if m[1] == cmd {
				return true
			}
			named = true
		}
	}
	return !named
}
