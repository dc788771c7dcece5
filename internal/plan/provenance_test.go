package plan

import (
	"reflect"
	"strings"
	"testing"
)

// A region its source estimated or could not measure plans exactly as
// without a profile; a measured one plans from the profile.
func TestUnmeasuredRegionPlansAsWithoutProfile(t *testing.T) {
	in := func(pr *Profile) Input { return Input{Limits: limits(512*mib, 1), JDK: jdk17, Profile: pr} }
	full := directbufProfile()

	without := *full
	without.LiveHeapBytes, without.PeakThreads = 0, 0
	marked := *full
	marked.Sources = map[string]string{"liveHeapBytes": SourceEstimated, "peakThreads": SourceUnmeasured, "metaspaceUsedBytes": SourceMicrometer}
	marked.PeakThreads = 0
	want, got := mustPlan(t, in(&without)), mustPlan(t, in(&marked))
	if !reflect.DeepEqual(want.Options, got.Options) {
		t.Fatalf("estimated live set planned from:\n got  %v\n want %v", got.Options, want.Options)
	}
	measured := mustPlan(t, in(full))
	if reflect.DeepEqual(measured.Options, got.Options) {
		t.Fatalf("the measured live set and threads changed nothing: %v", got.Options)
	}
	// The caller's profile is left as it was.
	if marked.LiveHeapBytes != full.LiveHeapBytes {
		t.Fatalf("Planned changed the caller's profile")
	}
}

// Java threads alone (a metrics endpoint's count) size the stacks with the
// VM's own threads added.
func TestJavaThreadsAloneSizeStacks(t *testing.T) {
	pr := directbufProfile()
	pr.PeakThreads, pr.PeakJavaThreads = 0, 20
	p := mustPlan(t, Input{Limits: limits(512*mib, 1), JDK: jdk17, Profile: pr})
	// (20 + 12 VM threads) + 25% + 4.
	if why := p.Region(RegStacks).Why; !strings.HasPrefix(why, "44 threads") {
		t.Fatalf("stacks not from the Java threads: %s", why)
	}
}

func TestSourcesValidate(t *testing.T) {
	for _, c := range []struct {
		p    Profile
		want string
	}{
		{Profile{LiveHeapBytes: 5, Sources: map[string]string{"liveHeapBytes": SourceUnmeasured}}, "marks it unmeasured"},
		{Profile{Sources: map[string]string{"liveHeap": SourceHsperf}}, "not a profile field"},
		{Profile{Sources: map[string]string{"liveHeapBytes": "guess"}}, "not one of"},
		{Profile{NMTPeakBytes: map[string]int64{"Total": 1}, Sources: map[string]string{"nmtPeakBytes": SourceUnmeasured}}, "marks it unmeasured"},
	} {
		err := c.p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.p.Sources, err, c.want)
		}
	}
	ok := Profile{LiveHeapBytes: 5, Sources: map[string]string{"liveHeapBytes": SourceMicrometer, "peakThreads": SourceUnmeasured}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
}
