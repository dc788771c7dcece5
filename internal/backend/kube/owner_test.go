package kube

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/jvmfit/jvmfit/internal/owner"
)

// Two CI jobs, each with its workspace at the same path, run jvmfit on
// jvmfit.db in one namespace. The second one's sweep leaves the first
// one's running Jobs alone: they are another owner's.
func TestKubeSweepLeavesAnotherOwnersJobs(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "jvmfit.db")
	task, _ := NewTask(testSpec(256*mi), testApp())
	theirs := testOptions()
	theirs.Namespace, theirs.Session = ns, "them0001"
	theirs.Owner, _ = owner.ForDB(db)
	// Its jvmfit runs on its own machine, which no process check here sees.
	theirs.Process = owner.Proc{Boot: "their-machine", NS: 1, Pid: 4242, Start: 1}.String()
	j, err := Job("jvmfit-them0001-0001", task, theirs)
	if err != nil {
		t.Fatal(err)
	}
	if err := cluster.api.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	os.Remove(db + ".owner") // the other job's workspace: the same path, another file
	mine, err := owner.ForDB(db)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Sweep(ctx, cluster.api, ns, SweepRule{Owner: mine, Session: "mine0001"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.BatchV1().Jobs(ns).Get(ctx, j.Name, metav1.GetOptions{}); err != nil || n != 0 {
		t.Errorf("the sweep removed %d Job(s): another owner's running Job is %v", n, err)
	}
}

// deadProc is the record of a jvmfit process of this machine that ended.
func deadProc(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	p := owner.Self()
	p.Pid = cmd.Process.Pid
	return p.String()
}
