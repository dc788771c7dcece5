package jvmopts

import "fmt"

// planned is filled in once internal/plan lands.
func planned(r Request, goal string) ([]string, error) {
	return nil, fmt.Errorf("--jvm jvmfit: the planner is not built yet")
}
