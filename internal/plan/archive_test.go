package plan

import (
	"os"
	"path/filepath"
	"strings"
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

// A dynamic CDS archive in the user's options that the profile did not
// map (tune's serial-c1-appcds before its own profile: catalog's archive
// from its training, 84.4 MiB, with the profile measured under the JDK's
// defaults): the archived classes' metadata is in the archive, so the plan
// takes half the file out of the measured metaspace instead of counting
// both. Checked against catalog's profile measured under the archive
// (serial-c1 + the archive at 512Mi, JDK 17, 1 CPU): the cap still holds
// the metaspace the app used with it, with the usual margin, and the
// plan's non-heap is a quarter of the file and more below the double count.
func TestNewAppArchiveTakesOverMetaspace(t *testing.T) {
	def, err := LoadProfile("testdata/catalog-default-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	with, err := LoadProfile("testdata/catalog-appcds-c1-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	jsa := filepath.Join(t.TempDir(), "serial-c1.jsa")
	const fileBytes = 88547328 // catalog's archive as tune's training wrote it
	f, err := os.Create(jsa)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(fileBytes); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c1 := []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-Xss256k"}
	in := Input{Limits: limits(400*mib, 1), JDK: jdk17, Goal: Footprint, Profile: def, UserOptions: append(c1, "-XX:SharedArchiveFile="+jsa)}
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	need := with.MetaspaceUsedBytes*(100+metaMarginPct)/100 + metaMarginAdd
	if m := optionBytes(t, p, "MaxMetaspaceSize"); m < need {
		t.Errorf("MaxMetaspaceSize %.1f MiB, below the %.1f MiB catalog used with the archive (+ margin)", float64(m)/float64(mib), float64(need)/float64(mib))
	}
	in.UserOptions = append(c1, "-XX:SharedArchiveFile="+filepath.Join(t.TempDir(), "absent.jsa"))
	without, err := Compute(in) // no file: the archive counts nothing, metaspace is the profile's
	if err != nil {
		t.Fatal(err)
	}
	doubled := nonHeap(without) + fileBytes
	if got := nonHeap(p); got > doubled-fileBytes/4 {
		t.Errorf("non-heap %.1f MiB with the archive; want at least a quarter of the %.1f MiB file below the double count %.1f MiB",
			float64(got)/float64(mib), float64(fileBytes)/float64(mib), float64(doubled)/float64(mib))
	}
	checkFits(t, p, 400*mib)

	// With the archive in the profile's options too, the profile measured
	// it: nothing is taken out.
	in.Profile, in.UserOptions = with, append(c1, with.Options[len(with.Options)-2])
	if !strings.HasPrefix(in.UserOptions[len(in.UserOptions)-1], "-XX:SharedArchiveFile=") {
		t.Fatalf("profile options %v: want the archive second to last", with.Options)
	}
	q, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(q.Region(RegMetaspace).Why, "less") {
		t.Errorf("metaspace with a profile that measured the archive: %s", q.Region(RegMetaspace).Why)
	}
}

func nonHeap(p *Plan) int64 {
	var n int64
	for _, r := range p.Regions {
		if r.Name != RegHeap && r.Name != RegHeadroom {
			n += r.Bytes
		}
	}
	return n
}
