package plan

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The room is what is left of the limit after headroom, heap, GC and the
// fixed regions: metaspace, direct memory and the native that grows with
// metaspace share it. A measured profile sizes them from its figures;
// without one, no rule caps them below what an app may need: they take
// the whole room, so that an app too big for the limit fails with a Java
// OutOfMemoryError (clean, ExitOnOutOfMemoryError) instead of a kernel
// OOM kill (docs/launcher.md, "Without a profile").

// sizeMeasured fills metaspace, class space, direct and native from the
// user's options and the profile; the rest stays 0 for fillRoom.
func (s *sizing) sizeMeasured(u userSet, pr *Profile) {
	if v, _ := u.size("MaxMetaspaceSize"); v > 0 {
		s.meta = v
		s.set(RegMetaspace, "user", "your "+u.keys["MaxMetaspaceSize"])
	} else if pr.MetaspaceUsedBytes > 0 {
		s.meta = roundUp(pr.MetaspaceUsedBytes*(100+metaMarginPct)/100+metaMarginAdd, grain)
		s.set(RegMetaspace, "profile", fmt.Sprintf("measured %s used (with class space) × 1.03 + 1 MiB", size.Format(pr.MetaspaceUsedBytes)))
		if a := pr.CDSArchiveBytes; s.shareOff && a > 0 && !hasOption(pr.Options, "-Xshare:off") {
			// Measured with the archive mapped; without it the JDK's
			// classes, their metadata and symbols load into metaspace.
			s.meta += roundUp(a, grain)
			s.set(RegMetaspace, "profile", s.why[RegMetaspace]+fmt.Sprintf(", plus the %s archive the profile had mapped (your -Xshare:off loads its classes here)", size.Format(a)))
		}
		if a := s.archiveGone; a > 0 && !s.shareOff {
			s.meta += roundUp(a, grain)
			s.set(RegMetaspace, "profile", s.why[RegMetaspace]+fmt.Sprintf(", plus the %s of archive or AOT cache the profile had mapped and your options do not (its classes load here)", size.Format(a)))
		}
		if a := s.archiveNew; a > 0 && !s.shareOff {
			take := roundUp(int64(float64(a)*archiveTakeover), grain)
			s.meta = max(metaFloor, s.meta-take)
			s.set(RegMetaspace, "profile", s.why[RegMetaspace]+fmt.Sprintf(", less %s: half the %s archive your options map and the profile did not (its classes' metadata is in it)", size.Format(take), size.Format(a)))
		}
		if c := roundUp(pr.ClassSpaceUsedBytes*(100+metaMarginPct)/100, grain); pr.ClassSpaceUsedBytes > 0 && c < s.meta {
			s.class = c
			s.set(RegClass, "profile", fmt.Sprintf("measured %s used × 1.03, inside MaxMetaspaceSize (the 1 GiB reservation is not resident)", size.Format(pr.ClassSpaceUsedBytes)))
		}
	}
	if v, _ := u.size("MaxDirectMemorySize"); v > 0 {
		s.direct = v
		s.set(RegDirect, "user", "your "+u.keys["MaxDirectMemorySize"])
	} else if pr.DirectMemoryBytes > 0 {
		s.direct = profileDirectNeed(pr)
		s.set(RegDirect, "profile", fmt.Sprintf("measured %s × 1.5 + 2 MiB (NIO's temporary buffers burst between readings)", size.Format(pr.DirectMemoryBytes)))
	}
	if !s.measuredNative && s.meta > 0 {
		s.native = s.nativeFor(s.meta)
	}
}

func (s *sizing) nativeFor(meta int64) int64 {
	s.set(RegNative, "jvmfit", "symbols, class loader data, internals: 2 MiB + 25% of metaspace (filecache: 8.9 MiB at 34 MiB)")
	return roundUp(nativeBase+int64(float64(meta)*nativePerMeta), mib)
}

// floors is what the room must at least hold for the plan to run.
func (s *sizing) floors() int64 {
	meta, direct, native := s.meta, s.direct, s.native
	if meta == 0 {
		meta = metaFloor
	}
	if direct == 0 {
		direct = directFloor
	}
	if native == 0 {
		native = roundUp(nativeBase+int64(float64(meta)*nativePerMeta), mib)
	}
	return meta + direct + native
}

// fillRoom gives whatever the measurement or the user did not size a share
// of the room, and caps every region at its share. It returns false when
// the room is below the floors.
func (s *sizing) fillRoom() bool {
	room := s.limit - s.headroom - s.heap - s.gcOverhead - s.fixed()
	if room < s.floors() {
		return false
	}
	if s.meta == 0 && s.direct == 0 {
		s.direct = clamp(room/32/mib*mib, directFloor, size.GiB)
		s.set(RegDirect, "jvmfit", "not measured: 1/32 of the room the heap leaves, at least 2 MiB")
	}
	if s.meta == 0 {
		rest := room - s.direct
		if !s.measuredNative {
			s.meta = max(metaFloor, int64(float64(rest-nativeBase)/(1+nativePerMeta))/mib*mib)
			s.nativeFor(s.meta)
			s.native = rest - s.meta
		} else {
			s.meta = max(metaFloor, (rest-s.native)/mib*mib)
		}
		s.set(RegMetaspace, "jvmfit", "not measured: all the room the heap and the other regions leave")
	}
	if s.direct == 0 {
		s.direct = max(directFloor, (room-s.meta-s.native)/mib*mib)
		s.set(RegDirect, "jvmfit", "not measured: the room metaspace leaves")
	}
	s.metaCap, s.directCap = s.meta, s.direct
	return s.limit-s.headroom-s.heap-s.nonHeap() >= 0
}

// profileDirectNeed is the direct memory cap a profile asks for: its
// measured peak × 1.5 + 2 MiB; 0 without a measurement.
func profileDirectNeed(pr *Profile) int64 {
	if pr == nil || pr.DirectMemoryBytes <= 0 {
		return 0
	}
	return roundUp(pr.DirectMemoryBytes*3/2+directMarginAdd, grain)
}
