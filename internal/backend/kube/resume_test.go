package kube

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// sessionOn is a Session whose trials are Jobs in ns, stored in st.
func sessionOn(t *testing.T, c kubernetes.Interface, api API, ns string, st *store.Store) Trials {
	r := newRunner(c)
	r.Client = api
	r.Jobs.Namespace, r.Jobs.Session = ns, NewSessionID()
	return newSession(t, testApp(), &Backend{run: r.Run}, st)
}

// checkResume: a trial run as a Job is stored like a local one, and the
// same experiment again takes it from the store without a Job.
func checkResume(t *testing.T, c kubernetes.Interface, api API, ns string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spec := testSpec(256 * mi)
	k := startKubelet(t, ctx, c, ns, finishedWith(mustMessage(t, Message{Result: okResult(spec)}), terminated(AppContainer, "Error", 143, "")))
	st, err := store.Open(filepath.Join(t.TempDir(), "jvmfit.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, reused, err := sessionOn(t, c, api, ns, st).Trial(ctx, spec, "cpus=1.5 memory=256Mi")
	if err != nil || reused || r.Verdict != trial.OK || r.ID == 0 {
		t.Fatalf("first run: %v reused=%v %v", r, reused, err)
	}
	stored, found, err := st.FindTrial(spec.Key())
	if err != nil || !found || stored.MemoryPeakBytes != 180*mi {
		t.Fatalf("stored: %v %v %v", stored, found, err)
	}
	r2, reused, err := sessionOn(t, c, api, ns, st).Trial(ctx, spec, "cpus=1.5 memory=256Mi")
	if err != nil || !reused || r2.MemoryPeakBytes != 180*mi {
		t.Fatalf("rerun: %v reused=%v %v", r2, reused, err)
	}
	if n := len(k.podNames()); n != 1 {
		t.Errorf("%d pods made: the rerun must take the stored trial, not run a Job", n)
	}
	assertGone(t, c, ns)
}

func TestResumeTakesTheStoredTrial(t *testing.T) {
	c := fake.NewClientset()
	checkResume(t, c, clientsetAPI{c}, "trials")
}
