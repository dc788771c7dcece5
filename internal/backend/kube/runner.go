package kube

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Runner runs trials as Jobs; its Run is what Backend.Run asks, so the
// Session stores, reuses and resumes them as it does local trials. It is
// safe for concurrent use (the Session's --parallel).
type Runner struct {
	Client API
	App    *app.App
	Jobs   JobOptions
	// Pending is how long a pod may stay unschedulable, or fail to pull an
	// image, before the trial ends as such (default 5 minutes).
	Pending time.Duration
	// Logs opens a container's log; nil = the API's pods/log. Only a
	// result too large for the termination message needs it.
	Logs func(ctx context.Context, pod, container string) (io.ReadCloser, error)
	// NoPod is how long a Job may go without a pod before the trial is
	// an error (a quota or an admission rule); default: Pending, at least
	// 10 s.
	NoPod time.Duration
	// Recheck is how often time-based states (unschedulable) are judged
	// again while no event comes (default 2s).
	Recheck time.Duration

	seq atomic.Int64
}

func (r *Runner) pending() time.Duration {
	if r.Pending > 0 {
		return r.Pending
	}
	return 5 * time.Minute
}

// noPod: the Job controller makes a pod within a second or two on a
// healthy cluster, but a busy API server (or test machine) can take
// longer; a short Pending must not call the Job broken before its
// controller has had its turn.
func (r *Runner) noPod() time.Duration {
	if r.NoPod > 0 {
		return r.NoPod
	}
	return max(r.pending(), 10*time.Second)
}

// say writes a line to the trial's progress stream (nil = quiet).
func say(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", a...)
	}
}

// Run creates the trial's Job, waits for its pod to end, reads the
// agent's result, lets Kubernetes' own verdicts (OOMKilled, evicted,
// unschedulable) decide, and deletes the Job and its pod on every path,
// a cancelled ctx (SIGINT) included. A pod that cannot run at all (a bad
// image) is an error, not a verdict, and nothing is stored.
//
// o is the trial's, as for every backend: its Progress gets a line per
// Job, and its LogDir keeps the app container's log (keepAppLog), read
// before the Job is deleted, since the app's output is in the pod and not
// in the agent's result. Without a LogDir nothing is kept: the log goes
// with the pod.
func (r *Runner) Run(ctx context.Context, spec trial.Spec, o trial.Options) (*trial.Result, error) {
	task, err := NewTask(spec, r.App)
	if err != nil {
		return nil, err
	}
	name := jobName(r.Jobs.Session, int(r.seq.Add(1)))
	job, err := Job(name, task, r.Jobs)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	// Tracked before it exists: a second Ctrl-C during the create call
	// must not miss it (deleting a Job that never came is no error).
	live := liveJob{r.Client, r.Jobs.Namespace, name}
	track(live)
	if err := r.Client.CreateJob(ctx, job); err != nil {
		untrack(live)
		return nil, fmt.Errorf("creating Job %s in namespace %s: %w", name, r.Jobs.Namespace, err)
	}
	defer r.remove(live, o.Progress)
	say(o.Progress, "  job %s/%s created", r.Jobs.Namespace, name)
	st, pod, err := r.wait(ctx, name)
	if err != nil {
		return nil, err
	}
	var logNote string
	if o.LogDir != "" && pod != nil {
		if err := r.keepAppLog(ctx, pod, spec, started, o.LogDir); err != nil {
			logNote = "the app's log not kept: " + err.Error()
		}
	}
	var res *trial.Result
	switch st.phase {
	case evicted:
		res = koResult(spec, KindEvicted, st.reason, started)
	case unscheduled:
		res = koResult(spec, KindUnschedulable, st.reason, started)
	case broken:
		return nil, fmt.Errorf("job %s: %s", name, st.reason)
	default:
		if res, err = r.result(ctx, pod, st, spec, started); err != nil {
			return nil, err
		}
		st.apply(res, spec)
	}
	res.Spec, res.Key = spec, spec.Key()
	res.Notes = append(res.Notes, fmt.Sprintf("ran as Job %s/%s%s", r.Jobs.Namespace, name, onNode(pod)))
	if logNote != "" {
		res.Notes = append(res.Notes, logNote)
	}
	return res, nil
}

func onNode(p *corev1.Pod) string {
	if p == nil || p.Spec.NodeName == "" {
		return ""
	}
	return " on node " + p.Spec.NodeName
}

// result reads the agent's termination message, and its log line when
// the message had to be trimmed.
func (r *Runner) result(ctx context.Context, pod *corev1.Pod, st podState, spec trial.Spec, started time.Time) (*trial.Result, error) {
	if st.agent.Message == "" {
		// The agent died without a word (its own OOM kill, a crash): jvmfit
		// failed, the app has no verdict.
		res := koResult(spec, trial.KindError, fmt.Sprintf("the jvmfit agent ended (%s, exit %d) without a result%s",
			st.agent.Reason, st.agent.ExitCode, r.logTail(ctx, pod)), started)
		return res, nil
	}
	m, err := DecodeMessage(st.agent.Message)
	if err != nil {
		return koResult(spec, trial.KindError, err.Error(), started), nil
	}
	if m.Error != "" || m.Result == nil {
		return koResult(spec, trial.KindError, "the jvmfit agent could not run the trial: "+m.Error, started), nil
	}
	res := m.Result
	if m.Trimmed {
		if full, err := r.readLog(ctx, pod); err == nil {
			res = full
		} else {
			res.Notes = append(res.Notes, "series and histograms lost: "+err.Error())
		}
	}
	return res, nil
}

func (r *Runner) openLog(ctx context.Context, pod string) (io.ReadCloser, error) {
	return r.containerLog(ctx, pod, AgentContainer)
}

func (r *Runner) containerLog(ctx context.Context, pod, container string) (io.ReadCloser, error) {
	if r.Logs != nil {
		return r.Logs(ctx, pod, container)
	}
	return r.Client.PodLog(ctx, r.Jobs.Namespace, pod, container)
}

// appLogMax bounds what one trial's app log costs the API server and the
// disk: a service's log over a trial is kilobytes, a debug flood is not.
const appLogMax = 8 << 20

// keepAppLog copies the app container's log (its first appLogMax bytes)
// into dir, under the name a local trial's log of the same spec would have
// (trial.KeepLog).
func (r *Runner) keepAppLog(ctx context.Context, pod *corev1.Pod, spec trial.Spec, started time.Time, dir string) error {
	rc, err := r.containerLog(ctx, pod.Name, AppContainer)
	if err != nil {
		return err
	}
	defer rc.Close()
	f, err := trial.KeepLog(dir, spec, started)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, io.LimitReader(rc, appLogMax))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (r *Runner) readLog(ctx context.Context, pod *corev1.Pod) (*trial.Result, error) {
	rc, err := r.openLog(ctx, pod.Name)
	if err != nil {
		return nil, fmt.Errorf("reading the agent's log: %w", err)
	}
	defer rc.Close()
	return ReadLogLine(rc)
}

// logTail is the agent log's last bytes, for a KO that says why.
func (r *Runner) logTail(ctx context.Context, pod *corev1.Pod) string {
	rc, err := r.openLog(ctx, pod.Name)
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, _ := io.ReadAll(io.LimitReader(rc, 1<<20))
	if len(b) > 600 {
		b = b[len(b)-600:]
	}
	if len(b) == 0 {
		return ""
	}
	return "; its log ends: " + string(b)
}

// remove deletes the Job and its pods, even when ctx is cancelled: the
// Job with background propagation, and the pods by label at once, since
// a cluster's garbage collector may take its time (and envtest has none).
func (r *Runner) remove(j liveJob, progress io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := deleteTrial(ctx, r.Client, j.ns, j.name); err != nil {
		say(progress, "  could not delete job %s/%s: %v (the next run sweeps it)", j.ns, j.name, err)
		return
	}
	untrack(j)
}
