package plan

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
)

// A live set measured with compact object headers grows without them: the
// plan of a JVM that runs without them counts it grown (a larger smallest
// limit, and a note saying why), and one that keeps them plans as before.
func TestCompactHeadersLiveSetAccounted(t *testing.T) {
	pr, err := LoadProfile("testdata/filecache-jdk25-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	plain := *pr
	pr.Options = append(slices.Clone(pr.Options), "-XX:+UseCompactObjectHeaders")
	smallestWith := func(pr *Profile, goal string, user ...string) (int64, *Plan) {
		t.Helper()
		_, err := Compute(Input{Limits: limits(16*mib, 1), JDK: jdk25, Goal: goal, Profile: pr, UserOptions: user})
		var ref *RefusedError
		if !errors.As(err, &ref) || ref.MinBytes == 0 {
			t.Fatalf("%s %v at 16 MiB: %v; want a refusal naming the smallest limit", goal, user, err)
		}
		p := mustPlan(t, Input{Limits: limits(ref.MinBytes, 1), JDK: jdk25, Goal: goal, Profile: pr, UserOptions: user})
		return ref.MinBytes, p
	}
	smallest := func(goal string, user ...string) (int64, *Plan) { return smallestWith(pr, goal, user...) }
	_, pw := smallest(Footprint) // footprint on 25 turns them on itself
	grown, po := smallest(Footprint, "-XX:-UseCompactObjectHeaders")
	asMeasured, _ := smallestWith(&plain, Footprint, "-XX:-UseCompactObjectHeaders")
	if grown <= asMeasured {
		t.Errorf("smallest limit without compact headers, from a profile with them %d MiB, from one without %d MiB; want more from the one with (its live set grows)", grown/mib, asMeasured/mib)
	}
	note := func(p *Plan) bool {
		return slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "compact object headers") })
	}
	if note(pw) || !note(po) {
		t.Errorf("warnings with %v, without %v; want the note only where the live set was grown", pw.Warnings, po.Warnings)
	}
	// Balanced does not turn them on: the same profile is counted grown.
	if _, pb := smallest(Balanced); !note(pb) {
		t.Errorf("balanced on JDK 25: %v; want the live set grown (the plan runs without compact headers)", pb.Warnings)
	}
	if _, pb := smallest(Balanced, "-XX:+UseCompactObjectHeaders"); note(pb) {
		t.Errorf("balanced with the user's compact headers: %v; want the live set as measured", pb.Warnings)
	}
	// A profile measured without them is an overestimate for a JVM with
	// them: left as measured.
	if p := mustPlan(t, Input{Limits: limits(256*mib, 1), JDK: jdk25, Goal: Footprint, Profile: &plain}); note(p) {
		t.Errorf("profile without compact headers: %v", p.Warnings)
	}
}

// The plan emits compact headers only where the JDK has them as a product
// option, and only for footprint.
func TestCompactHeadersEmittedOnlyWhereValid(t *testing.T) {
	for _, c := range []struct {
		j    jdk.JDK
		goal string
		want bool
	}{
		{jdk25, Footprint, true}, {jdk25, Balanced, false}, {jdk25, Throughput, false},
		{jdk.JDK{Version: 24}, Footprint, false}, {jdk17, Footprint, false},
	} {
		p := mustPlan(t, Input{Limits: limits(256*mib, 1), JDK: c.j, Goal: c.goal})
		if got := slices.Contains(p.Options, "-XX:+UseCompactObjectHeaders"); got != c.want {
			t.Errorf("JDK %d %s: compact headers %v, want %v: %v", c.j.Version, c.goal, got, c.want, p.Options)
		}
		if slices.Contains(p.Options, "-XX:+UnlockExperimentalVMOptions") {
			t.Errorf("JDK %d %s: the plan unlocks experimental options: %v", c.j.Version, c.goal, p.Options)
		}
	}
}

// A compressed class space below what the profile measured there is one
// clear error (the JVM would throw OutOfMemoryError: Compressed class
// space); at the measured use and above, the plan is made around it.
func TestClassSpaceBelowProfileRefused(t *testing.T) {
	pr, err := LoadProfile("testdata/filecache-jdk25-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Limits: limits(256*mib, 1), JDK: jdk25, Goal: Footprint, Profile: pr}
	in.UserOptions = []string{"-XX:CompressedClassSpaceSize=4m"} // the profile used 4.7 MiB
	_, err = Compute(in)
	if err == nil || !strings.Contains(err.Error(), "-XX:CompressedClassSpaceSize=4m") || !strings.Contains(err.Error(), "Compressed class space") || strings.Contains(err.Error(), "\n") {
		t.Errorf("4m under a 4.7 MiB class space: %v; want one line naming the option and the JVM's error", err)
	}
	in.UserOptions = []string{"-XX:CompressedClassSpaceSize=16m"}
	p := mustPlan(t, in)
	if !slices.Contains(p.Options, "-XX:MaxMetaspaceSize="+optionValue(p.Options, "-XX:MaxMetaspaceSize=")) || slices.ContainsFunc(p.Options, func(o string) bool { return strings.HasPrefix(o, "-XX:CompressedClassSpaceSize") }) {
		t.Errorf("16m: %v; want the plan's metaspace cap and the user's class space left to the user", p.Options)
	}
	// Without a profile nothing is known to compare with.
	in.Profile, in.UserOptions = nil, []string{"-XX:CompressedClassSpaceSize=1m"}
	mustPlan(t, in)
}

// jvmfit never emits an option that turns off the bytecode verifier, at
// any goal, JDK, limit or profile; a user's is kept, with a warning.
func TestPlannerNeverTurnsOffVerifier(t *testing.T) {
	var profiles []*Profile
	for _, f := range []string{"filecache-jdk25-profile.json", "filecache-c1-profile.json", "catalog-default-profile.json", "heapbound-default-profile.json"} {
		pr, err := LoadProfile("testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, pr)
	}
	profiles = append(profiles, nil)
	for _, j := range []jdk.JDK{{Version: 8, Update: 402}, {Version: 11, Update: 20}, jdk17, {Version: 21, Update: 5}, {Version: 24}, jdk25} {
		for _, goal := range []string{Footprint, Balanced, Throughput} {
			for _, m := range []int64{128, 256, 512, 2048} {
				for _, cpus := range []float64{0.5, 1, 2, 8} {
					for _, pr := range profiles {
						p, err := Compute(Input{Limits: limits(m*mib, cpus), JDK: j, Goal: goal, Profile: pr})
						if err != nil {
							continue // refused: nothing emitted
						}
						for _, o := range p.Options {
							if TurnsOffVerifier(o) {
								t.Fatalf("JDK %d %s %d MiB %g CPUs: the plan emits %s", j.Version, goal, m, cpus, o)
							}
						}
					}
				}
			}
		}
	}
	for _, o := range []string{"-Xverify:none", "-XX:-BytecodeVerificationRemote", "-XX:-BytecodeVerificationLocal"} {
		p, user, err := Override(Input{Limits: limits(256*mib, 1), JDK: jdk17}, []string{o})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(user, o) || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], o) || !strings.Contains(p.Warnings[0], "verifier") {
			t.Errorf("user's %s: command line %v, warnings %v; want it kept, with one warning naming it", o, user, p.Warnings)
		}
	}
	for _, o := range []string{"-XX:+BytecodeVerificationRemote", "-Xverify:remote", "-XX:+UseSerialGC"} {
		if TurnsOffVerifier(o) {
			t.Errorf("%s does not turn off the verifier", o)
		}
	}
}
