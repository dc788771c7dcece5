package kube

import (
	"context"
	"fmt"
	"io"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// API is the part of Kubernetes jvmfit uses: Jobs, their pods, a pod's
// log. The real one (NewAPI) is client-go's REST client over a scheme of
// just core/v1 and batch/v1: the generated clientset registers every API
// group of Kubernetes and would more than double the binary (17.8 → 45 MB
// stripped). Tests adapt client-go's fake clientset to it.
type API interface {
	CreateJob(ctx context.Context, j *batchv1.Job) error
	DeleteJob(ctx context.Context, ns, name string) error // background propagation
	ListJobs(ctx context.Context, ns, selector string) ([]batchv1.Job, error)
	ListPods(ctx context.Context, ns, selector string) (*corev1.PodList, error)
	WatchPods(ctx context.Context, ns, selector, resourceVersion string) (watch.Interface, error)
	DeletePod(ctx context.Context, ns, name string) error
	PodLog(ctx context.Context, ns, pod, container string) (io.ReadCloser, error)
}

var scheme = runtime.NewScheme()

func init() {
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, batchv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
}

// restAPI is API over two REST clients, /api/v1 and /apis/batch/v1.
type restAPI struct{ core, batch *rest.RESTClient }

// NewAPI is the API of the cluster cfg reaches.
func NewAPI(cfg *rest.Config) (API, error) {
	codecs := serializer.NewCodecFactory(scheme)
	client := func(path string, gv schema.GroupVersion) (*rest.RESTClient, error) {
		c := rest.CopyConfig(cfg)
		c.APIPath, c.GroupVersion = path, &gv
		c.NegotiatedSerializer = codecs.WithoutConversion()
		c.ContentType = runtime.ContentTypeJSON
		if c.UserAgent == "" {
			c.UserAgent = "jvmfit"
		}
		return rest.RESTClientFor(c)
	}
	core, err := client("/api", corev1.SchemeGroupVersion)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	batch, err := client("/apis", batchv1.SchemeGroupVersion)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	return restAPI{core: core, batch: batch}, nil
}

func (a restAPI) CreateJob(ctx context.Context, j *batchv1.Job) error {
	return a.batch.Post().Namespace(j.Namespace).Resource("jobs").Body(j).Do(ctx).Error()
}

func (a restAPI) DeleteJob(ctx context.Context, ns, name string) error {
	bg := metav1.DeletePropagationBackground
	return a.batch.Delete().Namespace(ns).Resource("jobs").Name(name).Body(&metav1.DeleteOptions{PropagationPolicy: &bg}).Do(ctx).Error()
}

func (a restAPI) ListJobs(ctx context.Context, ns, selector string) ([]batchv1.Job, error) {
	var l batchv1.JobList
	err := a.batch.Get().Namespace(ns).Resource("jobs").
		VersionedParams(&metav1.ListOptions{LabelSelector: selector}, metav1.ParameterCodec).Do(ctx).Into(&l)
	return l.Items, err
}

func (a restAPI) ListPods(ctx context.Context, ns, selector string) (*corev1.PodList, error) {
	var l corev1.PodList
	err := a.core.Get().Namespace(ns).Resource("pods").
		VersionedParams(&metav1.ListOptions{LabelSelector: selector}, metav1.ParameterCodec).Do(ctx).Into(&l)
	return &l, err
}

func (a restAPI) WatchPods(ctx context.Context, ns, selector, rv string) (watch.Interface, error) {
	o := &metav1.ListOptions{LabelSelector: selector, ResourceVersion: rv, Watch: true, AllowWatchBookmarks: true}
	return a.core.Get().Namespace(ns).Resource("pods").VersionedParams(o, metav1.ParameterCodec).Watch(ctx)
}

func (a restAPI) DeletePod(ctx context.Context, ns, name string) error {
	return a.core.Delete().Namespace(ns).Resource("pods").Name(name).Body(&metav1.DeleteOptions{}).Do(ctx).Error()
}

func (a restAPI) PodLog(ctx context.Context, ns, pod, container string) (io.ReadCloser, error) {
	return a.core.Get().Namespace(ns).Resource("pods").Name(pod).SubResource("log").Param("container", container).Stream(ctx)
}
