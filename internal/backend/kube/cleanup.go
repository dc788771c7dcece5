package kube

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// deleteTrial deletes a trial's Job and its pods; what is already gone is
// no error.
func deleteTrial(ctx context.Context, c API, ns, job string) error {
	err := c.DeleteJob(ctx, ns, job)
	if apierrors.IsNotFound(err) {
		err = nil
	}
	return errors.Join(err, deletePods(ctx, c, ns, trialSelector(job), ""))
}

// deletePods deletes the pods selector selects, but those of session
// spare ("" = none).
func deletePods(ctx context.Context, c API, ns, selector, spare string) error {
	pods, err := c.ListPods(ctx, ns, selector)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range pods.Items {
		if spare != "" && p.Labels[LabelSession] == spare {
			continue
		}
		if err := c.DeletePod(ctx, ns, p.Name); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Sweep deletes the Jobs and pods an owner's earlier runs left in ns (a
// jvmfit killed outright cannot delete its own), and says how many Jobs
// it found. Call it before a session's first trial; the current session's
// objects are spared.
func Sweep(ctx context.Context, c API, ns, owner, session string) (int, error) {
	jobs, err := c.ListJobs(ctx, ns, ownerSelector(owner))
	if err != nil {
		return 0, fmt.Errorf("listing jvmfit's Jobs in namespace %s: %w", ns, err)
	}
	n := 0
	var errs []error
	for _, j := range jobs {
		if j.Labels[LabelSession] == session {
			continue
		}
		n++
		errs = append(errs, deleteTrial(ctx, c, ns, j.Name))
	}
	// Pods whose Job is already gone.
	errs = append(errs, deletePods(ctx, c, ns, ownerSelector(owner), session))
	return n, errors.Join(errs...)
}
