package kube

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/jvmfit/jvmfit/internal/owner"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func newRunner(c kubernetes.Interface) *Runner {
	return &Runner{Client: clientsetAPI{c}, App: testApp(), Jobs: testOptions(), Pending: time.Minute, Recheck: 20 * time.Millisecond}
}

// runWith runs one trial against a fake cluster whose kubelet gives fate.
func runWith(t *testing.T, fate func(string, *corev1.Pod), tune func(*Runner)) (*trial.Result, error, *fake.Clientset) {
	t.Helper()
	c := fake.NewClientset()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	startKubelet(t, ctx, c, "trials", fate)
	r := newRunner(c)
	if tune != nil {
		tune(r)
	}
	res, err := r.Run(ctx, testSpec(256*mi), trial.Options{})
	assertGone(t, c, "trials")
	return res, err, c
}

// assertGone fails if any Job or pod is left in ns.
func assertGone(t *testing.T, c kubernetes.Interface, ns string) {
	t.Helper()
	ctx := context.Background()
	jobs, _ := c.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{})
	pods, _ := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if len(jobs.Items)+len(pods.Items) != 0 {
		t.Errorf("left behind: %d Jobs, %d pods", len(jobs.Items), len(pods.Items))
	}
}

func TestRunOKFromTheTerminationMessage(t *testing.T) {
	spec := testSpec(256 * mi)
	msg := mustMessage(t, Message{Result: okResult(spec)})
	res, err, _ := runWith(t, finishedWith(msg, terminated(AppContainer, "Error", 143, "")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != trial.OK || res.MemoryPeakBytes != 180*mi || res.Key != spec.Key() || res.Load.Throughput != 199 {
		t.Errorf("got %+v", res)
	}
	if !strings.Contains(strings.Join(res.Notes, ";"), "ran as Job trials/jvmfit-5e55104d-0001") {
		t.Errorf("notes %v", res.Notes)
	}
}

func TestRunOOMKilledByKubernetes(t *testing.T) {
	spec := testSpec(256 * mi)
	agent := &trial.Result{Spec: spec, Verdict: trial.KO, Kind: trial.KindExited, Failed: []string{"the app exited before the load ended"}}
	res, err, _ := runWith(t, finishedWith(mustMessage(t, Message{Result: agent}), terminated(AppContainer, "OOMKilled", 137, "")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != trial.KO || res.Kind != trial.KindOOMKilled || *res.ExitCode != 137 {
		t.Errorf("got %s %s %v", res.Verdict, res.Kind, res.Failed)
	}
}

func TestRunEvicted(t *testing.T) {
	res, err, _ := runWith(t, evictedPod, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != trial.KO || res.Kind != KindEvicted || !strings.Contains(res.Failed[0], "low on resource: memory") {
		t.Errorf("got %s %s %v", res.Verdict, res.Kind, res.Failed)
	}
}

func TestRunUnschedulable(t *testing.T) {
	t0 := time.Now()
	res, err, _ := runWith(t, unschedulablePod, func(r *Runner) { r.Pending = 300 * time.Millisecond })
	if took := time.Since(t0); took < 300*time.Millisecond {
		t.Errorf("gave up on the pending pod after %s, before the 300ms timeout", took)
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != trial.KO || res.Kind != KindUnschedulable || !strings.Contains(res.Failed[0], "Insufficient memory") {
		t.Errorf("got %s %s %v", res.Verdict, res.Kind, res.Failed)
	}
}

// A pod that cannot start is no verdict on the app: an error, nothing to
// store.
func TestRunBadImageIsAnError(t *testing.T) {
	res, err, _ := runWith(t, func(_ string, p *corev1.Pod) {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: AppContainer, Image: "img", State: corev1.ContainerState{
			Waiting: &corev1.ContainerStateWaiting{Reason: "InvalidImageName", Message: "couldn't parse image name"}}}}
	}, nil)
	if err == nil || res != nil || !strings.Contains(err.Error(), "InvalidImageName") {
		t.Errorf("got %v, %v", res, err)
	}
}

// An agent that died without a word (its own OOM kill) is jvmfit's
// failure: a KindError result, which the Session stores and never reuses.
func TestRunAgentWithoutResult(t *testing.T) {
	res, err, _ := runWith(t, finishedWith("", running(AppContainer)), func(r *Runner) {
		r.Logs = func(context.Context, string, string) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader("panic: out of memory\n")), nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != trial.KindError || !strings.Contains(res.Failed[0], "panic: out of memory") {
		t.Errorf("got %s %v", res.Kind, res.Failed)
	}
}

func bigResult() *trial.Result {
	r := okResult(testSpec(256 * mi))
	for i := range 3000 {
		r.Series = append(r.Series, probe.Sample{RSS: int64(i) * 4096 * 7919, HeapUsed: int64(i) * 31337, Threads: i})
	}
	return r
}

// A trimmed message is completed from the agent's log; without a log the
// verdict stands and a note says what was lost.
func TestRunTrimmedResultReadsTheLog(t *testing.T) {
	big := bigResult()
	msg := mustMessage(t, Message{Result: big})
	var log bytes.Buffer
	WriteLogLine(&log, big)
	var asked atomic.Int32
	res, err, _ := runWith(t, finishedWith(msg, terminated(AppContainer, "Error", 143, "")), func(r *Runner) {
		r.Logs = func(_ context.Context, pod, container string) (io.ReadCloser, error) {
			if container != AgentContainer || !strings.HasPrefix(pod, "jvmfit-5e55104d-0001") {
				t.Errorf("log of %s/%s", pod, container)
			}
			asked.Add(1)
			return io.NopCloser(bytes.NewReader(log.Bytes())), nil
		}
	})
	if err != nil || len(res.Series) != 3000 || asked.Load() != 1 {
		t.Fatalf("%d samples, log read %d times, %v", len(res.Series), asked.Load(), err)
	}
	// The fake clientset's log is "fake logs": no result line.
	res, err, _ = runWith(t, finishedWith(msg, terminated(AppContainer, "Error", 143, "")), nil)
	if err != nil || res.Verdict != trial.OK || len(res.Series) != 0 || !strings.Contains(strings.Join(res.Notes, ";"), "series and histograms lost") {
		t.Fatalf("without the log: %s, %d samples, notes %v, %v", res.Verdict, len(res.Series), res.Notes, err)
	}
}

// SIGINT: the context ends mid-trial; the Job and its pod are deleted
// before Run returns, and the error is the context's.
func TestRunCancelledDeletesTheJob(t *testing.T) {
	c := fake.NewClientset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := startKubelet(t, ctx, c, "trials", nil) // the pod stays Pending
	go func() {
		for len(k.podNames()) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	res, err := newRunner(c).Run(ctx, testSpec(256*mi), trial.Options{})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("got %v, %v", res, err)
	}
	assertGone(t, c, "trials")
	var deletes []string
	for _, a := range c.Actions() {
		if a.GetVerb() == "delete" {
			deletes = append(deletes, a.GetResource().Resource)
		}
	}
	if strings.Join(deletes, ",") != "jobs,pods" {
		t.Errorf("deletes %v: want the Job, then its pod", deletes)
	}
}

// The API server ends watches and expires resource versions (410 Gone);
// the runner lists again and still sees the outcome.
func TestRunSurvivesWatchExpiryAndClose(t *testing.T) {
	c := fake.NewClientset()
	var watches atomic.Int32
	c.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		switch watches.Add(1) {
		case 1: // expired at once
			w := watch.NewFakeWithChanSize(1, false)
			w.Error(&metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old resource version"})
			return true, w, nil
		case 2: // closed by the server
			w := watch.NewFake()
			w.Stop()
			return true, w, nil
		}
		return false, nil, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	spec := testSpec(256 * mi)
	// The kubelet is slow to start: the pod appears after the broken watches.
	go func() {
		for watches.Load() < 3 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // the third watch is registered: the fake replays nothing
		startKubelet(t, ctx, c, "trials", finishedWith(mustMessage(t, Message{Result: okResult(spec)}), terminated(AppContainer, "Error", 143, "")))
	}()
	r := newRunner(c)
	r.Recheck = time.Minute // no periodic resync: only the broken watches may make it list again
	res, err := r.Run(ctx, spec, trial.Options{})
	if err != nil || res.Verdict != trial.OK {
		t.Fatalf("%v %v", res, err)
	}
	lists := 0
	for _, a := range c.Actions() {
		if a.GetVerb() == "list" && a.GetResource().Resource == "pods" {
			lists++
		}
	}
	if watches.Load() < 3 || lists < 3 {
		t.Errorf("%d watches, %d lists: want a list after each broken watch", watches.Load(), lists)
	}
}

// A rerun after a SIGKILL removes what the killed run left under the same
// owner, and nothing of another owner's, of a live run's (another jvmfit
// on the same database) or of its own session; past --sweep-stale,
// anyone's old run goes too.
func TestSweepLeftovers(t *testing.T) {
	dead, live := deadProc(t), owner.Self().String()
	old := metav1.NewTime(time.Now().Add(-3 * time.Hour))
	mk := func(name, owner, session, process string, created metav1.Time) []runtime.Object {
		l := sessionLabels(owner, session)
		l[LabelTrial] = name
		m := metav1.ObjectMeta{Name: name, Namespace: "trials", Labels: l, CreationTimestamp: created,
			Annotations: map[string]string{AnnotationProcess: process}}
		pm := *m.DeepCopy()
		pm.Name += "-x1"
		return []runtime.Object{&batchv1.Job{ObjectMeta: m}, &corev1.Pod{ObjectMeta: pm}}
	}
	now := metav1.Now()
	var objs []runtime.Object
	objs = append(objs, mk("jvmfit-dead0001-0001", "me", "dead0001", dead, now)...)
	objs = append(objs, mk("jvmfit-dead0001-0002", "me", "dead0001", dead, now)...)
	objs = append(objs, mk("jvmfit-other-0001", "someone", "other", dead, now)...)
	objs = append(objs, mk("jvmfit-alive-0001", "me", "alive", live, now)...)
	objs = append(objs, mk("jvmfit-live-0001", "me", "live", live, now)...)
	objs = append(objs, mk("jvmfit-stale-0001", "someone", "stale", live, old)...)
	left := func(c *fake.Clientset) string {
		jobs, _ := c.BatchV1().Jobs("trials").List(context.Background(), metav1.ListOptions{})
		pods, _ := c.CoreV1().Pods("trials").List(context.Background(), metav1.ListOptions{})
		var names []string
		for _, j := range jobs.Items {
			names = append(names, j.Name)
		}
		for _, p := range pods.Items {
			names = append(names, p.Name)
		}
		return strings.Join(names, ",")
	}
	c := fake.NewClientset(objs...)
	n, err := Sweep(context.Background(), clientsetAPI{c}, "trials", SweepRule{Owner: "me", Session: "live"})
	if err != nil || n != 2 {
		t.Fatalf("swept %d, %v", n, err)
	}
	if got := left(c); got != "jvmfit-alive-0001,jvmfit-live-0001,jvmfit-other-0001,jvmfit-stale-0001,"+
		"jvmfit-alive-0001-x1,jvmfit-live-0001-x1,jvmfit-other-0001-x1,jvmfit-stale-0001-x1" {
		t.Errorf("left %v", got)
	}
	n, err = Sweep(context.Background(), clientsetAPI{c}, "trials", SweepRule{Owner: "me", Session: "live", Stale: time.Hour})
	if err != nil || n != 1 {
		t.Fatalf("with --sweep-stale 1h swept %d, %v: want the 3 hours old Job", n, err)
	}
	if got := left(c); strings.Contains(got, "stale") {
		t.Errorf("left %v", got)
	}
}

// A Job that never makes a pod (a quota, an admission rule) is an error
// once NoPod has passed, and the Job is still deleted.
func TestRunJobWithoutPodIsAnError(t *testing.T) {
	c := fake.NewClientset() // no kubelet: nothing ever makes the pod
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := newRunner(c)
	r.NoPod, r.Recheck = 200*time.Millisecond, 50*time.Millisecond
	res, err := r.Run(ctx, testSpec(256*mi), trial.Options{})
	if err == nil || res != nil || !strings.Contains(err.Error(), "made no pod in 200ms") {
		t.Errorf("got %v, %v", res, err)
	}
	assertGone(t, c, "trials")
}

// A short Pending does not judge the Job before its controller had its
// turn: without NoPod, a Job gets at least 10 s to make its pod.
func TestNoPodWaitsAtLeastTenSeconds(t *testing.T) {
	r := &Runner{Pending: 300 * time.Millisecond}
	if got := r.noPod(); got != 10*time.Second {
		t.Errorf("noPod with Pending 300ms = %s, want 10s", got)
	}
	r.Pending = 2 * time.Minute
	if got := r.noPod(); got != 2*time.Minute {
		t.Errorf("noPod with Pending 2m = %s, want 2m", got)
	}
}
