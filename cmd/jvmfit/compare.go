package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/store"
)

func init() { commands = append(commands, newCompare) }

func newCompare() *cobra.Command {
	var (
		ef                 experimentFlags
		sets, memory, cpus string
		jvms               string
		rate               float64
		fresh              bool
	)
	cmd := &cobra.Command{
		Use:   "compare --app app.yaml [--sets seed001|FILE] [--memory 512Mi]",
		Short: "Run JVM option sets side by side on one workload (seed 001's table)",
		Long: `compare runs one trial per option set (and per --memory, --cpus) and lays
them out like seed 001: upload, execute and total time, GC time and its
share, live set and physical heap (average and peak, MiB and % of the
maximum heap). --sets seed001 is built in: seed 001's pardef, serdef,
seropt and paropt. Cells already in --db are reused unless --fresh.`,
		Example: `  jvmfit compare --app workloads/filecache/app.yaml --sets seed001 --memory 512Mi
  jvmfit compare --app app.yaml --sets my-sets.yaml --memory 256Mi,512Mi --cpus 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, names, err := experiment.LoadSets(sets)
			if err != nil {
				return asUsage(err)
			}
			if jvms != "" {
				names = experiment.ParseList(jvms)
			}
			mems, err := experiment.ParseSizes("memory", memory)
			if err != nil {
				return asUsage(err)
			}
			cpuList, err := experiment.ParseNumbers("cpus", cpus)
			if err != nil {
				return asUsage(err)
			}
			if rate < 0 {
				return usagef("--rate cannot be negative")
			}
			if ef.optionSets != "" {
				return usagef("--option-sets: compare takes its sets from --sets")
			}
			// set:NAME modes resolve against a file; a built-in set is
			// written out so trials record where their options came from.
			path := sets
			if _, builtin := experiment.BuiltinSets[sets]; builtin {
				dir, err := os.MkdirTemp("", "jvmfit-sets-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				path = filepath.Join(dir, sets+".yaml")
				if err := os.WriteFile(path, data, 0o644); err != nil {
					return err
				}
			}
			ef.optionSets = path
			args := map[string]any{"app": ef.app, "sets": sets, "names": names, "memory": mems, "cpus": cpuList, "rate": rate, "fresh": fresh}
			sess, err := ef.open()
			if err != nil {
				return err
			}
			defer sess.close()
			ax := experiment.CompareAxes(names, mems)
			if jvms != "" { // modes side by side instead of option sets (docs/anchors.md)
				ax.JVMs = names
			}
			ax.CPUs = cpuList
			base := sess.base
			base.Rate = rate
			sw := experiment.Sweep{Base: base, Cells: ax.Cells(base), Prepare: sess.prepare, Trial: sess.run,
				Fresh: fresh, Progress: experiment.NewProgress(sess.log)}
			if _, err := sw.Specs(); err != nil {
				return asUsage(err)
			}
			if err := sess.begin(store.KindCompare, args); err != nil {
				return err
			}
			sw.Store, sw.ExperimentID = sess.store, sess.expID
			fmt.Fprintf(sess.log, "%d option sets × %d limits × %d CPU counts\n", len(names), len(mems), len(cpuList))
			cells, runErr := sw.Run(cmd.Context())
			sess.ended(runErr)
			if runErr != nil && len(cells) == 0 {
				return runErr
			}
			return printMatrix(cmd, sess, ef.json, cells, runErr)
		},
	}
	ef.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&sets, "sets", "seed001", "option sets: the built-in seed001, or a YAML file of name: [options...]")
	fl.StringVar(&jvms, "jvm", "", "modes side by side instead of --sets, e.g. default,runjava,paketo,ubi,jvmfit")
	fl.StringVar(&memory, "memory", "512Mi", "memory limits, e.g. 512Mi or 256Mi,512Mi")
	fl.StringVar(&cpus, "cpus", "1", "CPU counts, e.g. 1 or 1,2")
	fl.Float64Var(&rate, "rate", 0, "measured request rate (0 = the descriptor's or scenario's)")
	fl.BoolVar(&fresh, "fresh", false, "run every cell again even if the database has it")
	return cmd
}
