package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
)

// backendFlags choose where an experiment's trials run (docs/kubernetes.md):
// on this machine, or as Kubernetes Jobs, --parallel at a time.
type backendFlags struct {
	backend, namespace, kubeconfig string
	agentImage, dryRun             string
	parallel                       int
	pending                        time.Duration

	// room is the largest trial of a search (minmem, tune): with it,
	// --parallel may run on this machine when the host has room.
	room experiment.Room

	dryDB string         // a dry run's throwaway database
	cmd   *cobra.Command // the command the flags are on
}

func (b *backendFlags) register(cmd *cobra.Command) {
	b.cmd = cmd
	fl := cmd.Flags()
	fl.StringVar(&b.backend, "backend", "local", "where trials run: local (this machine) or k8s (one Kubernetes Job per trial)")
	fl.StringVar(&b.namespace, "namespace", "", "k8s: namespace of the trial Jobs (default: the kubeconfig context's)")
	fl.StringVar(&b.kubeconfig, "kubeconfig", "", "k8s: kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)")
	fl.StringVar(&b.agentImage, "agent-image", "jvmfit:"+version, "k8s: an image holding this jvmfit binary on its PATH (the pod's load and probe container)")
	fl.IntVar(&b.parallel, "parallel", 1, "trials run side by side: k8s pods (sweep and compare cells, minmem's and tune's rounds), or on this machine for minmem and tune when it has CPUs and memory for them")
	fl.DurationVar(&b.pending, "pending-timeout", 5*time.Minute, "k8s: how long a pod may stay unschedulable before the trial counts as such")
	fl.StringVar(&b.dryRun, "dry-run", "", `k8s: write the Job manifests instead of applying them: "-" for stdout, or a directory`)
	fl.Lookup("dry-run").NoOptDefVal = "-"
	// A dry run's ErrDryRun is its success.
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		err := run(cmd, args)
		if b.dryDB != "" {
			os.RemoveAll(filepath.Dir(b.dryDB))
		}
		if b.dryRun != "" && errors.Is(err, experiment.ErrDryRun) {
			where := "stdout"
			if b.dryRun != "-" {
				where = b.dryRun
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "dry run: the first trials' Job manifests are in %s; nothing was applied or stored\n", where)
			return nil
		}
		return err
	}
}

// apply points s at the chosen backend (experiment.UseBackend); db is the
// results database (a dry run swaps in a throwaway one, since it stores
// nothing).
func (b *backendFlags) apply(s *experiment.Session, db *string) error {
	cmd := b.cmd
	cfg := experiment.BackendConfig{Name: b.backend, Parallel: b.parallel, Room: b.room, Namespace: b.namespace, Kubeconfig: b.kubeconfig,
		AgentImage: b.agentImage, Pending: b.pending, DryRun: b.dryRun, Manifests: cmd.OutOrStdout()}
	k, err := s.UseBackend(cmd.Context(), cfg, *db)
	var be *experiment.BackendError
	switch {
	case errors.As(err, &be):
		return asUsage(err)
	case err != nil:
		return err
	}
	if k.Swept > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "removed %d Job(s) an earlier run on %s left in namespace %s\n", k.Swept, *db, k.Namespace)
	}
	if k.DB != *db {
		b.dryDB, *db = k.DB, k.DB
	}
	return nil
}
