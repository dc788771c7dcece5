package kube

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/jvmfit/jvmfit/internal/owner"
)

// deleteTrial deletes a trial's Job and its pods; what is already gone is
// no error.
func deleteTrial(ctx context.Context, c API, ns, job string) error {
	err := c.DeleteJob(ctx, ns, job)
	if apierrors.IsNotFound(err) {
		err = nil
	}
	return errors.Join(err, deletePods(ctx, c, ns, trialSelector(job), nil))
}

// deletePods deletes the pods selector selects, but those keep keeps
// (nil: none).
func deletePods(ctx context.Context, c API, ns, selector string, keep func(metav1.ObjectMeta) bool) error {
	pods, err := c.ListPods(ctx, ns, selector)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range pods.Items {
		if keep != nil && keep(p.ObjectMeta) {
			continue
		}
		if err := c.DeletePod(ctx, ns, p.Name); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// SweepRule says which Jobs and pods a sweep removes: those of Owner's
// runs other than Session whose jvmfit process is certainly gone, and,
// with Stale, anyone's created longer ago than that. The owner is a random
// id recorded beside the results database (owner.ForDB), never a name two
// machines could share, and a live run's objects are never touched.
type SweepRule struct {
	Owner, Session string
	Stale          time.Duration // 0 = none by age
}

// swept says whether the rule removes an object with this metadata.
func (r SweepRule) swept(m metav1.ObjectMeta) bool {
	if m.Labels[LabelSession] == r.Session {
		return false
	}
	if r.Stale > 0 && !m.CreationTimestamp.IsZero() && time.Since(m.CreationTimestamp.Time) > r.Stale {
		return true
	}
	p, ok := owner.Parse(m.Annotations[AnnotationProcess])
	return ok && m.Labels[LabelOwner] == r.Owner && p.Gone()
}

// Sweep deletes the Jobs and pods that runs the rule names left in ns (a
// jvmfit killed outright cannot delete its own), and says how many Jobs
// it found. Call it before a session's first trial.
func Sweep(ctx context.Context, c API, ns string, r SweepRule) (int, error) {
	selector := ownerSelector(r.Owner)
	if r.Stale > 0 {
		selector = managedSelector() // anyone's may be old enough
	}
	jobs, err := c.ListJobs(ctx, ns, selector)
	if err != nil {
		return 0, fmt.Errorf("listing jvmfit's Jobs in namespace %s: %w", ns, err)
	}
	n := 0
	var errs []error
	for _, j := range jobs {
		if !r.swept(j.ObjectMeta) {
			continue
		}
		n++
		errs = append(errs, deleteTrial(ctx, c, ns, j.Name))
	}
	// Pods whose Job is already gone.
	errs = append(errs, deletePods(ctx, c, ns, selector, func(m metav1.ObjectMeta) bool { return !r.swept(m) }))
	return n, errors.Join(errs...)
}
