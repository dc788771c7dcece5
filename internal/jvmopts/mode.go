package jvmopts

import "strings"

// Mode is a --jvm value read once: whether it is the launcher's
// ("jvmfit" or "jvmfit:GOAL") and with which goal. Every place that asks
// "is this a jvmfit mode" asks ParseMode.
type Mode struct {
	Launcher bool   // jvmfit or jvmfit:GOAL: the launcher plans
	Goal     string // GOAL of jvmfit:GOAL, "" for plain jvmfit and other modes
}

// ParseMode reads a --jvm value.
func ParseMode(s string) Mode {
	s = strings.TrimSpace(s)
	if s == "jvmfit" {
		return Mode{Launcher: true}
	}
	if goal, ok := strings.CutPrefix(s, "jvmfit:"); ok {
		return Mode{Launcher: true, Goal: goal}
	}
	return Mode{}
}

// LauncherMode is the --jvm value of the launcher with a goal ("" = the
// launcher's default goal).
func LauncherMode(goal string) string {
	if goal == "" {
		return "jvmfit"
	}
	return "jvmfit:" + goal
}
