package plan

import "testing"

// NMT's malloc headers come out of a measured native only when the profile
// ran with NMT and the plan's JVM runs without it; the archive's clean
// pages are reserved only beyond the headroom, and a profile without the
// split counts the archive whole.
func TestNMTHeadersAndArchiveCharge(t *testing.T) {
	pr := &Profile{Options: []string{"-XX:NativeMemoryTracking=summary"}, NMTPeakBytes: map[string]int64{"Symbol": 10 * mib}}
	if h := nmtHeaders(pr, nil); h != 2*mib {
		t.Errorf("headers %d, want 20%% of Symbol's 10 MiB", h)
	}
	if h := nmtHeaders(pr, []string{"-XX:NativeMemoryTracking=detail"}); h != 0 {
		t.Errorf("the plan's JVM runs NMT too: headers %d, want 0", h)
	}
	if h := nmtHeaders(&Profile{Options: []string{"-XX:NativeMemoryTracking=off"}, NMTPeakBytes: pr.NMTPeakBytes}, nil); h != 0 {
		t.Errorf("a profile without NMT: headers %d, want 0", h)
	}
	whole := &Profile{CDSArchiveBytes: 12 * mib}
	if c := archiveCharged(whole, 2*mib); c != 12*mib {
		t.Errorf("no split measured: %d, want the archive whole", c)
	}
	split := &Profile{CDSArchiveBytes: 12 * mib, CDSArchiveAnonBytes: 10 * mib}
	if c := archiveCharged(split, 3*mib); c != 10*mib {
		t.Errorf("2 MiB clean in a 3 MiB headroom: %d, want the 10 MiB written", c)
	}
	if c := archiveCharged(split, mib); c != 11*mib {
		t.Errorf("2 MiB clean in a 1 MiB headroom: %d, want 10 written + 1 beyond the headroom", c)
	}
	if err := (&Profile{CDSArchiveBytes: mib, CDSArchiveAnonBytes: 2 * mib}).Validate(); err == nil {
		t.Error("more written than resident accepted")
	}
}
