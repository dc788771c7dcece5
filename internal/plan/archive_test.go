package plan

import (
	"os"
	"path/filepath"
	"testing"
)

// JDK 25 with -XX:AOTCache=F in the user's options: a profile measured
// with that cache has the cache's resident size in cdsArchiveBytes (the
// probe reads the mapping of the file the option names), and the plan
// counts it once, from the profile; a profile measured without it (the
// JDK's default archive, 13.6 MiB) gets the cache file's size on top,
// since nothing measured it.
func TestAOTCacheCountedFromProfile(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "app.aot")
	const fileBytes = 40 * mib
	if err := os.WriteFile(cache, make([]byte, fileBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := "-XX:AOTCache=" + cache
	base := Profile{Version: 1, LiveHeapBytes: 14 * mib, MetaspaceUsedBytes: 20 * mib, CodeCacheUsedBytes: 10 * mib,
		PeakUncappedNativeBytes: 26 * mib, JDKVersion: 25, CPUs: 1,
		Options: []string{"-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"}}
	with := base
	with.CDSArchiveBytes = 43 * mib // the cache's resident pages, as the probe read them
	with.Options = append(append([]string(nil), base.Options...), opt)
	without := base
	without.CDSArchiveBytes = 13*mib + 600*1024

	for _, c := range []struct {
		name string
		pr   *Profile
		want int64
	}{
		{"profile measured with the cache", &with, with.CDSArchiveBytes},
		{"profile measured without it", &without, without.CDSArchiveBytes + fileBytes},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := Input{Limits: limits(256*mib, 1), JDK: jdk25, Profile: c.pr, UserOptions: []string{opt}}
			p, err := Compute(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Region(RegCDS).Bytes; got != c.want {
				t.Errorf("CDS region %d MiB, want %d MiB", got>>20, c.want>>20)
			}
			checkFits(t, p, 256*mib)
			checkMeasured(t, p, c.pr, 256*mib)
		})
	}
}

// A profile measured with an AOT cache (filecache on JDK 25: 54.4 MiB of
// cache resident, 4.0 MiB of metaspace) planned for options without it:
// the JDK's default archive maps instead and the cache's classes load into
// metaspace, which the same app measured without the cache used 32.5 MiB
// of. The plan's metaspace cap must hold that (with the cache's metaspace
// figure alone it was 5.25 MiB, and filecache stopped at start with
// "OutOfMemoryError: Metaspace"), and the archive is not counted as the
// cache.
func TestAOTCacheProfileWithoutTheCache(t *testing.T) {
	with, err := LoadProfile("testdata/filecache-jdk25-aot-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	without, err := LoadProfile("testdata/filecache-jdk25-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Limits: limits(160*mib, 1), JDK: jdk25, Profile: with}
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	meta := optionBytes(t, p, "MaxMetaspaceSize")
	if meta < without.MetaspaceUsedBytes {
		t.Errorf("MaxMetaspaceSize %d MiB, below the %d MiB the app uses without the cache", meta>>20, without.MetaspaceUsedBytes>>20)
	}
	if c := p.Region(RegCDS).Bytes; c >= with.CDSArchiveBytes {
		t.Errorf("CDS region %d MiB: the cache the options do not map is still counted", c>>20)
	}
	checkFits(t, p, 160*mib)

	// With the cache in the options, the profile's figures stand.
	in.UserOptions = []string{with.Options[0]}
	p, err = Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Region(RegCDS).Bytes; c != with.CDSArchiveBytes {
		t.Errorf("CDS region %d, want the measured cache %d", c, with.CDSArchiveBytes)
	}
	if m := optionBytes(t, p, "MaxMetaspaceSize"); m > 8*mib {
		t.Errorf("MaxMetaspaceSize %d MiB with the cache mapped, want the measured 4 MiB + margin", m>>20)
	}
}
