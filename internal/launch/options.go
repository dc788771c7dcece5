package launch

// vmOptions lists the JVM options java ends with from the user's sources,
// in the order HotSpot applies them, the last occurrence winning
// (hotspot.go has the facts): the -XX:Flags settings file, then
// JAVA_TOOL_OPTIONS, then the command line (JDK_JAVA_OPTIONS' words, then
// cmdline, the arguments after jvmfit's own options), then _JAVA_OPTIONS;
// @argfiles expanded where the launcher expands them and each group's
// -XX:VMOptionsFile in its place. An option jvmfit plans around is then
// one java really ends with, from wherever it came.
func (e Env) vmOptions(cmdline []string) ([]string, error) {
	fromEnv, fromArgs, err := LauncherArgs(e.JDKOptions, cmdline)
	if err != nil {
		return nil, err
	}
	envOpts, _ := SplitArgs(fromEnv)
	argOpts, _ := SplitArgs(fromArgs)
	tool, err := expandVMOptionsFile("JAVA_TOOL_OPTIONS", e.ToolOptions)
	if err != nil {
		return nil, err
	}
	cmd, err := expandVMOptionsFile("the command line", append(envOpts, argOpts...))
	if err != nil {
		return nil, err
	}
	last, err := expandVMOptionsFile("_JAVA_OPTIONS", e.LastOptions)
	if err != nil {
		return nil, err
	}
	var out []string
	if path := flagsFile(tool, cmd, last); path != "" {
		if out, err = settingsFile(path); err != nil {
			return nil, err
		}
	}
	out = append(out, tool...)
	out = append(out, cmd...)
	return append(out, last...), nil
}
