package kube

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A trial's settings are Spec fields, so the agent in the pod sees them as
// the local backends do: a tune --backend k8s profile trial is taken with
// the full GC at the end (before, the agent built its own deps and never
// had it), and a training run keeps its long stop grace.
func TestAgentSeesTheTrialsSettings(t *testing.T) {
	spec := trial.Spec{AppName: "x", JVM: "default", MemoryBytes: 512 << 20, CPUs: 1, FullGCAtEnd: true, StopGrace: time.Minute}
	task, err := NewTask(spec, &app.App{Name: "x", Port: 8080, Ready: "http://127.0.0.1:8080/"})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := task.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeTask(enc)
	if err != nil || !got.Spec.FullGCAtEnd || got.Spec.StopGrace != time.Minute {
		t.Fatalf("the pod's spec %+v (%v): want the full GC at the end and a 1m stop grace", got.Spec, err)
	}
	if tg := (podProber{}).target(&attached{pid: 42}, got.Spec); !tg.FullGCAtEnd || tg.Pid != 42 {
		t.Errorf("the pod's sampler target %+v: want the full GC at the end", tg)
	}
	if tg := (podProber{}).target(&attached{pid: 42}, trial.Spec{}); tg.FullGCAtEnd {
		t.Error("a trial without the setting got a full GC at the end")
	}
}
