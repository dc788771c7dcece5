package kube

import (
	"context"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/cleanup"
)

// DeleteAll is the Kubernetes backend's emergency-cleanup hook
// (internal/cleanup): a second Ctrl-C or a panic makes main run it and
// exit, and Run's deferred delete then never runs.
func init() { cleanup.Register(DeleteAll) }

// liveJob is a trial Job created and not yet deleted.
type liveJob struct {
	c        API
	ns, name string
}

// jobs holds every trial Job that Run created and has not deleted, so
// that the hook knows what to delete without a list call (and so without
// the owner label, which another jvmfit may share).
var jobs = struct {
	sync.Mutex
	live map[[2]string]API // namespace and name: the client that made it
}{live: map[[2]string]API{}}

func track(j liveJob) {
	jobs.Lock()
	jobs.live[[2]string{j.ns, j.name}] = j.c
	jobs.Unlock()
}

func untrack(j liveJob) {
	jobs.Lock()
	delete(jobs.live, [2]string{j.ns, j.name})
	jobs.Unlock()
}

// emergencyTimeout bounds DeleteAll: main exits when it returns, and an
// API server that does not answer must not keep a user's second Ctrl-C
// waiting; a Job it could not delete is the next run's sweep's.
const emergencyTimeout = 10 * time.Second

// DeleteAll deletes every live trial Job and its pods at once, and
// returns when all are done or emergencyTimeout has passed.
func DeleteAll() {
	jobs.Lock()
	stops := make([]func(), 0, len(jobs.live))
	for k, c := range jobs.live {
		j := liveJob{c, k[0], k[1]}
		stops = append(stops, func() {
			ctx, cancel := context.WithTimeout(context.Background(), emergencyTimeout)
			defer cancel()
			if deleteTrial(ctx, j.c, j.ns, j.name) == nil {
				untrack(j)
			}
		})
	}
	jobs.Unlock()
	cleanup.AtOnce(stops...)
}
