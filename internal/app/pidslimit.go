package app

import "strconv"

// parsePidsLimit reads pids_limit: a whole number of tasks above zero.
// There is no "unlimited": the limit guards the host against a runaway
// trial, and one too low for an app is raised, not removed.
func parsePidsLimit(a *App, r *raw) error {
	if r.PidsLimit == nil {
		return nil
	}
	n, err := strconv.ParseInt(r.PidsLimit.Value, 10, 64)
	if err != nil || n <= 0 {
		return fieldError("pids_limit", "%q is not a positive number of tasks (processes and threads; default 4096)", r.PidsLimit.Value)
	}
	a.PidsLimit = n
	return nil
}
