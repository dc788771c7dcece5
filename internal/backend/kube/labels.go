// Package kube runs trials as Kubernetes Jobs (docs/kubernetes.md): one Job
// per trial whose pod holds the app's image, with the trial's limits, next to
// a jvmfit agent container that drives the load over localhost, samples the
// app through the shared process namespace and hands back its trial.Result.
// Everything it creates carries the labels below, so a rerun after a
// SIGKILL finds and removes what the killed run left.
package kube

import (
	"crypto/rand"
	"crypto/sha256"
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
	LabelOwner     = "jvmfit/owner"   // who reruns it: a hash of the results database
	LabelTrial     = "jvmfit/trial"   // the Job's own name, on its pods too
)

// NewSessionID is a fresh run's id: 8 hex digits, a valid label value.
func NewSessionID() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// OwnerID names whoever reruns a command: the same results database gives
// the same owner, so its rerun sweeps the Jobs a killed run left while
// leaving other users' sessions in the namespace alone.
func OwnerID(db string) string {
	h := sha256.Sum256([]byte(db))
	return hex.EncodeToString(h[:6])
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

// jobName is a trial's Job name: short, unique in the session, DNS-1123.
func jobName(session string, seq int) string {
	return fmt.Sprintf("jvmfit-%s-%04d", session, seq)
}
