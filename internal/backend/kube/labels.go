// Package kube runs trials as Kubernetes Jobs (docs/kubernetes.md): one Job
// per trial whose pod holds the app's image, with the trial's limits, next to
// a jvmfit agent container that drives the load over localhost, samples the
// app through the shared process namespace and hands back its trial.Result.
// Everything it creates carries the labels below, so a rerun after a
// SIGKILL finds and removes what the killed run left.
package kube

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"k8s.io/apimachinery/pkg/labels"
)

// Label keys on every Job and pod jvmfit creates.
const (
	LabelManagedBy = "app.kubernetes.io/managed-by"
	ManagedBy      = "jvmfit"
	LabelName      = "app.kubernetes.io/name"
	LabelSession   = "jvmfit/session" // one jvmfit process's run
	LabelOwner     = "jvmfit/owner"   // whose run: the id recorded beside the results database (owner.ForDB)
	LabelTrial     = "jvmfit/trial"   // the Job's own name, on its pods too
	// AnnotationProcess is the run's jvmfit process (owner.Proc), on Jobs
	// and pods: the sweep removes an owner's objects once it is gone. An
	// annotation, since it may pass a label value's 63 characters.
	AnnotationProcess = "jvmfit/process"
)

// NewSessionID is a fresh run's id: 8 hex digits, a valid label value.
func NewSessionID() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sessionLabels are the labels every object of a session carries.
func sessionLabels(owner, session string) map[string]string {
	return map[string]string{
		LabelManagedBy: ManagedBy,
		LabelName:      "jvmfit-trial",
		LabelOwner:     owner,
		LabelSession:   session,
	}
}

// trialSelector selects one trial's pods.
func trialSelector(job string) string {
	return labels.SelectorFromSet(labels.Set{LabelManagedBy: ManagedBy, LabelTrial: job}).String()
}

// sessionSelector selects one session's objects.
func sessionSelector(owner, session string) string {
	return labels.SelectorFromSet(labels.Set{LabelManagedBy: ManagedBy, LabelOwner: owner, LabelSession: session}).String()
}

// ownerSelector selects every object an owner's runs created.
func ownerSelector(owner string) string {
	return labels.SelectorFromSet(labels.Set{LabelManagedBy: ManagedBy, LabelOwner: owner}).String()
}

// managedSelector selects every object any jvmfit created.
func managedSelector() string {
	return labels.SelectorFromSet(labels.Set{LabelManagedBy: ManagedBy}).String()
}

// jobName is a trial's Job name: short, unique in the session, DNS-1123.
func jobName(session string, seq int) string {
	return fmt.Sprintf("jvmfit-%s-%04d", session, seq)
}
