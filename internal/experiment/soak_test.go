package experiment

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The soak runs at the recommended limit for its own duration and is
// stored; a KO raises the limit 16 MiB and soaks again, and the
// recommendation counts as tested only when the last soak passed.
func TestSoakProvesOrRaises(t *testing.T) {
	cases := []struct {
		name   string
		passAt int64 // the smallest limit a long trial passes at
		want   []int64
		tested bool
	}{
		{"holds", 128 * mi, []int64{128 * mi}, true},
		{"raised once", 144 * mi, []int64{128 * mi, 144 * mi}, true},
		{"never", 512 * mi, []int64{128 * mi, 144 * mi, 160 * mi}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := openStore(t)
			var ran []int64
			f := &fake{}
			s := newSession(t, st, f, store.KindMinMem)
			s.Base.Duration = 10 * time.Second
			s.Run = func(_ context.Context, sp trial.Spec) (*trial.Result, error) {
				if sp.Duration != time.Minute || !sp.Soak || sp.JVM != "jvmfit" || sp.CPUs != 1 || sp.Java != "/jdk/bin/java" {
					t.Errorf("soak spec %+v: want a 1m soak, jvmfit, 1 CPU, the recommendation's java", sp)
				}
				ran = append(ran, sp.MemoryBytes)
				r := &trial.Result{Spec: sp, Verdict: trial.OK, MemoryPeakBytes: sp.MemoryBytes - 20*mi}
				if sp.MemoryBytes < c.passAt {
					r.Verdict, r.Kind = trial.KO, trial.KindOOMKilled
				}
				return r, nil
			}
			var log bytes.Buffer
			s.Progress = &log
			rec, err := Recommend([]Candidate{{JVM: "jvmfit", Java: "/jdk/bin/java", CPUs: 1, MinOK: 104 * mi, Precision: 8 * mi, Edge: true}}, s.OptionsAt)
			if err != nil || rec.MemoryBytes != 128*mi || rec.Tested {
				t.Fatalf("recommendation %+v, %v: want 128Mi, untested", rec, err)
			}
			if err := (MinMemPlan{}).Soak(context.Background(), s, rec, time.Minute); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ran, c.want) || len(rec.Soak) != len(c.want) || rec.Tested != c.tested {
				t.Fatalf("soaked at %v (%d recorded), tested %v; want %v, tested %v", ran, len(rec.Soak), rec.Tested, c.want, c.tested)
			}
			last := c.want[len(c.want)-1]
			if rec.MemoryBytes != last || rec.MarginBytes != last-104*mi || rec.Options[0] != fmt.Sprintf("-Xmx%dm", last/mi/2) {
				t.Errorf("after the soak: limit %s, margin %s, options %v; want %s", size.Format(rec.MemoryBytes),
					size.Format(rec.MarginBytes), rec.Options, size.Format(last))
			}
			stored := stored(t, st, s)
			if len(stored) != len(c.want) || rec.Soak[0].TrialID != stored[0].ID {
				t.Errorf("%d soak trials stored, want %d, each with its id", len(stored), len(c.want))
			}
			if strings.Count(log.String(), "soak 1m0s cpus=1 jvm=jvmfit") != len(c.want) {
				t.Errorf("log:\n%s", log.String())
			}
		})
	}
}
