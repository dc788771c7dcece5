package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/profile"
	"github.com/jvmfit/jvmfit/internal/size"
)

func newProfileDiffCmd() *cobra.Command {
	var limit, goal string
	cmd := &cobra.Command{
		Use:   "diff LAB PROD",
		Short: "Say which regions a production profile exceeds against the lab's, and what that does to the answer",
		Long: `Compare PROD (a profile jvmfit exec --record-profile wrote, say) with LAB, the
profile an answer was proven with: each region where production's peak passes
the lab's by more than 5%, and what it does to the answer at its limit. It
holds; or it needs limit X (the smallest limit the planner accepts with
production's figures); or the limit still plans production, but the proof was
made with the lab's figures: re-tune with --profile PROD. docs/profile-record.md.`,
		Example: `  jvmfit profile diff filecache.json /data/filecache-prod.json
  jvmfit profile diff --limit 320Mi --goal footprint lab.json prod.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("give two profile files: jvmfit profile diff LAB PROD")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			lab, err := plan.LoadProfile(args[0])
			if err != nil {
				return usagef("LAB: %v", err)
			}
			prod, err := plan.LoadProfile(args[1])
			if err != nil {
				return usagef("PROD: %v", err)
			}
			g, err := plan.ParseGoal(goal)
			if err != nil {
				return usagef("--goal: %v", err)
			}
			var lim int64
			if limit != "" {
				if lim, err = size.Parse(limit); err != nil || lim < size.MiB {
					return usagef("--limit %q: give the answer's memory limit, like 320Mi or 1G", limit)
				}
			} else if prod.MemoryLimitBytes == 0 && lab.MemoryLimitBytes == 0 {
				return usagef("neither profile names its memory limit: give the answer's with --limit")
			}
			d := profile.Diff(lab, prod, profile.DiffInput(lab, prod, lim, g))
			d.Prod = args[1]
			_, err = fmt.Fprintln(cmd.OutOrStdout(), d.Line())
			return err
		},
	}
	cmd.Flags().StringVar(&limit, "limit", "", "the answer's memory limit (default: PROD's memoryLimitBytes, else LAB's)")
	cmd.Flags().StringVar(&goal, "goal", "balanced", "the answer's goal: footprint, balanced or throughput")
	return cmd
}
