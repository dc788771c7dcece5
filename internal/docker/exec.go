//go:build linux

package docker

import "context"

// Exec runs a command inside the running container (docker exec), as the
// container's user, and returns its trimmed stdout: how jcmd reaches a JVM
// whose attach socket lives in another pid namespace.
func (p *Process) Exec(ctx context.Context, args ...string) (string, error) {
	return p.eng.Run(ctx, nil, append([]string{"exec", p.id}, args...)...)
}
