package kube

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// deleteTrial deletes a trial's Job and its pods; what is already gone is
// no error.
func deleteTrial(ctx context.Context, c Client, ns, job string) error {
	bg := metav1.DeletePropagationBackground
	err := c.BatchV1().Jobs(ns).Delete(ctx, job, metav1.DeleteOptions{PropagationPolicy: &bg})
	if apierrors.IsNotFound(err) {
		err = nil
	}
	return errors.Join(err, deletePods(ctx, c, ns, trialSelector(job)))
}

func deletePods(ctx context.Context, c Client, ns, selector string) error {
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range pods.Items {
		err := c.CoreV1().Pods(ns).Delete(ctx, p.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Sweep deletes the Jobs and pods an owner's earlier runs left in ns (a
// jvmfit killed outright cannot delete its own), and says how many Jobs
// it found. Call it before a session's first trial; the current session's
// objects are spared.
func Sweep(ctx context.Context, c Client, ns, owner, session string) (int, error) {
	jobs, err := c.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{LabelSelector: ownerSelector(owner)})
	if err != nil {
		return 0, fmt.Errorf("listing jvmfit's Jobs in namespace %s: %w", ns, err)
	}
	n := 0
	var errs []error
	for _, j := range jobs.Items {
		if j.Labels[LabelSession] == session {
			continue
		}
		n++
		errs = append(errs, deleteTrial(ctx, c, ns, j.Name))
	}
	// Pods whose Job is already gone.
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: ownerSelector(owner)})
	if err != nil {
		return n, errors.Join(append(errs, err)...)
	}
	for _, p := range pods.Items {
		if p.Labels[LabelSession] == session {
			continue
		}
		if err := c.CoreV1().Pods(ns).Delete(ctx, p.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}
