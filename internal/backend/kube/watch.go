package kube

import (
	"context"
	"fmt"
	"net/http"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// wait follows a trial's pods until one of them has an outcome. It lists
// (which gives a resource version), then watches from there; when the
// watch closes (the API server ends watches every few minutes) or its
// version has expired (410 Gone), it lists again, so no change is lost
// and none is waited for forever. A timer judges again what only time
// changes (a pod unschedulable for too long). A Job that makes no pod
// within the pending time is broken (a quota or an admission webhook).
func (r *Runner) wait(ctx context.Context, job string) (podState, *corev1.Pod, error) {
	sel := trialSelector(job)
	recheck := r.Recheck
	if recheck <= 0 {
		recheck = 2 * time.Second
	}
	tick := time.NewTicker(recheck)
	defer tick.Stop()
	// A list every so often besides the watch: a safety net that costs
	// one request, for an event a client library or proxy dropped.
	resync := 15 * recheck
	created := time.Now()
	known := map[string]*corev1.Pod{}
	judge := func() (podState, *corev1.Pod, bool) {
		for _, p := range known {
			if st := judgePod(p, time.Now(), r.pending()); st.phase != pending {
				return st, p, true
			}
		}
		if len(known) == 0 && time.Since(created) > r.noPod() {
			return podState{phase: broken, reason: fmt.Sprintf("the Job made no pod in %s (see kubectl describe job %s: a quota or an admission rule?)", r.noPod(), job)}, nil, true
		}
		return podState{}, nil, false
	}
	failures := 0
	for {
		list, err := r.Client.ListPods(ctx, r.Jobs.Namespace, sel)
		if err != nil {
			if ctx.Err() != nil {
				return podState{}, nil, ctx.Err()
			}
			if failures++; failures > 5 {
				return podState{}, nil, fmt.Errorf("listing the pods of job %s: %w", job, err)
			}
			if err := sleep(ctx, time.Duration(failures)*time.Second); err != nil {
				return podState{}, nil, err
			}
			continue
		}
		failures = 0
		clear(known)
		for i := range list.Items {
			known[list.Items[i].Name] = &list.Items[i]
		}
		if st, p, done := judge(); done {
			return st, p, nil
		}
		w, err := r.Client.WatchPods(ctx, r.Jobs.Namespace, sel, list.ResourceVersion)
		if err != nil {
			if ctx.Err() != nil {
				return podState{}, nil, ctx.Err()
			}
			continue // list again
		}
		st, p, done, err := r.follow(ctx, w, job, known, tick.C, time.After(resync), judge)
		w.Stop()
		if err != nil || done {
			return st, p, err
		}
	}
}

// follow applies a watch's events on job's pods (a label selector the
// server applies; checked again here) to known until an outcome, the end of
// the watch or the resync time (done false: list again), or ctx's end.
func (r *Runner) follow(ctx context.Context, w watch.Interface, job string, known map[string]*corev1.Pod, tick, resync <-chan time.Time,
	judge func() (podState, *corev1.Pod, bool)) (podState, *corev1.Pod, bool, error) {
	for {
		select {
		case <-ctx.Done():
			return podState{}, nil, false, ctx.Err()
		case <-tick:
		case <-resync:
			return podState{}, nil, false, nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				return podState{}, nil, false, nil
			}
			switch ev.Type {
			case watch.Error:
				// 410 Gone (the version expired) or any other: list again.
				if st, ok := ev.Object.(*metav1.Status); ok && st.Code != http.StatusGone {
					if err := sleep(ctx, time.Second); err != nil {
						return podState{}, nil, false, err
					}
				}
				return podState{}, nil, false, nil
			case watch.Added, watch.Modified:
				if p, ok := ev.Object.(*corev1.Pod); ok && p.Labels[LabelTrial] == job {
					known[p.Name] = p
				}
			case watch.Deleted:
				if p, ok := ev.Object.(*corev1.Pod); ok && p.Labels[LabelTrial] == job {
					// Its last state may hold the outcome (an eviction's
					// pod is deleted soon after).
					if st := judgePod(p, time.Now(), r.pending()); st.phase != pending {
						return st, p, true, nil
					}
					delete(known, p.Name)
				}
			}
		}
		if st, p, done := judge(); done {
			return st, p, true, nil
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
