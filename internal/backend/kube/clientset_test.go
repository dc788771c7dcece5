package kube

import (
	"context"
	"io"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// clientsetAPI is API over a generated clientset: client-go's fake one in
// the unit tests (envtest's use NewAPI, the real thing).
type clientsetAPI struct{ c kubernetes.Interface }

func (a clientsetAPI) CreateJob(ctx context.Context, j *batchv1.Job) error {
	_, err := a.c.BatchV1().Jobs(j.Namespace).Create(ctx, j, metav1.CreateOptions{})
	return err
}

func (a clientsetAPI) DeleteJob(ctx context.Context, ns, name string) error {
	bg := metav1.DeletePropagationBackground
	return a.c.BatchV1().Jobs(ns).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &bg})
}

func (a clientsetAPI) ListJobs(ctx context.Context, ns, selector string) ([]batchv1.Job, error) {
	l, err := a.c.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

func (a clientsetAPI) ListPods(ctx context.Context, ns, selector string) (*corev1.PodList, error) {
	return a.c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
}

func (a clientsetAPI) WatchPods(ctx context.Context, ns, selector, rv string) (watch.Interface, error) {
	return a.c.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{LabelSelector: selector, ResourceVersion: rv, AllowWatchBookmarks: true})
}

func (a clientsetAPI) DeletePod(ctx context.Context, ns, name string) error {
	return a.c.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{})
}

func (a clientsetAPI) PodLog(ctx context.Context, ns, pod, container string) (io.ReadCloser, error) {
	return a.c.CoreV1().Pods(ns).GetLogs(pod, &corev1.PodLogOptions{Container: container}).Stream(ctx)
}
