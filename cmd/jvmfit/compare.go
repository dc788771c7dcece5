package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/store"
)

func init() { commands = append(commands, newCompare) }

const compareLong = `compare runs one trial per option set (and per --memory, --cpus) and lays
them out like seed 001: upload, execute and total time, GC time and its
share, live set and physical heap (average and peak, MiB and % of the
maximum heap). --sets seed001 is built in: seed 001's pardef, serdef,
seropt and paropt. Cells already in --db are reused unless --fresh.`

func newCompare() *cobra.Command {
	var (
		ef                 experimentFlags
		sets, memory, cpus string
		jvms               string
		rate               float64
		soak               time.Duration
	)
	cmd := &cobra.Command{
		Use:   "compare (--app app.yaml | --jar app.jar [--get PATH]) [--sets seed001|FILE] [--memory 512Mi]",
		Short: "Run JVM option sets side by side on one workload (seed 001's table)",
		Long:  compareLong,
		Example: `  jvmfit compare --app workloads/filecache/app.yaml --sets seed001 --memory 512Mi
  jvmfit compare --app app.yaml --sets my-sets.yaml --memory 256Mi,512Mi --cpus 1
  jvmfit compare --jar target/app.jar --get /api/items --memory 256Mi`,
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
			if soak < 0 {
				return usagef("--soak cannot be negative (0 skips the proof)")
			}
			if ef.optionSets != "" {
				return usagef("--option-sets: compare takes its sets from --sets")
			}
			path, cleanup, err := setsFile(sets, data)
			if err != nil {
				return err
			}
			defer cleanup()
			ef.optionSets = path
			args := map[string]any{"app": ef.appRef(), "sets": sets, "names": names, "memory": mems, "cpus": cpuList, "rate": rate, "fresh": ef.fresh, "soak": soak.String()}
			sess, err := ef.open()
			if err != nil {
				return err
			}
			defer sess.close()
			sess.Base.Rate = rate
			sw := experiment.Compare(names, mems, cpuList, sess.Base)
			if jvms != "" { // modes side by side instead of option sets (docs/anchors.md)
				sw = experiment.Sweep{Cells: experiment.Axes{JVMs: names, Memory: mems, CPUs: cpuList}.Cells(sess.Base)}
			}
			sw.SoakFor = soak
			what := fmt.Sprintf("%d option sets × %d limits × %d CPU counts", len(names), len(mems), len(cpuList))
			return runMatrix(cmd, sess, sw, store.KindCompare, args, ef.json, what)
		},
	}
	ef.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&sets, "sets", "seed001", "option sets: the built-in seed001, or a YAML file of name: [options...]")
	fl.StringVar(&jvms, "jvm", "", "modes side by side instead of --sets, e.g. default,runjava,paketo,ubi,jvmfit")
	fl.StringVar(&memory, "memory", "512Mi", "memory limits, e.g. 512Mi or 256Mi,512Mi")
	fl.StringVar(&cpus, "cpus", "1", "CPU counts, e.g. 1 or 1,2")
	fl.Float64Var(&rate, "rate", 0, "measured request rate (0 = the descriptor's or scenario's)")
	fl.DurationVar(&soak, "soak", 0, "prove the recommendation with a soak this long at its limit, run as recommended (0 = none: it is labelled not proven, with the command that proves it)")
	return cmd
}

// setsFile is the file set:NAME modes resolve against: --sets itself, or a
// built-in set written out (removed by cleanup) so trials record where
// their options came from.
func setsFile(sets string, data []byte) (path string, cleanup func(), err error) {
	if _, builtin := experiment.BuiltinSets[sets]; !builtin {
		return sets, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "jvmfit-sets-")
	if err != nil {
		return "", nil, err
	}
	path = filepath.Join(dir, sets+".yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return path, func() { os.RemoveAll(dir) }, nil
}
