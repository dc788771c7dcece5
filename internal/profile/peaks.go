package profile

import (
	"github.com/jvmfit/jvmfit/internal/plan"
)

// peaks folds one JVM's readings over a window into a profile: each
// field's highest figure, with its source; the native part's highest
// value at any one instant. A field no reading had is unmeasured.
func peaks(rs []reading, cadvisor bool) *plan.Profile {
	p := &plan.Profile{Version: plan.ProfileVersion}
	src := map[string]string{}
	f := fieldsOf(p)
	var native int64
	nativeSrc := plan.SourceUnmeasured
	for _, r := range rs {
		if !r.hasJVM() {
			continue
		}
		for name, v := range r.v {
			dst, ok := f[name]
			if !ok {
				continue
			}
			if v > *dst || src[name] == "" {
				*dst, src[name] = max(v, *dst), r.src[name]
			}
		}
		if n, s := r.native(cadvisor); s != plan.SourceUnmeasured && n >= native {
			native, nativeSrc = n, s
		}
	}
	if nativeSrc != plan.SourceUnmeasured {
		p.PeakUncappedNativeBytes, src["peakUncappedNativeBytes"] = native, nativeSrc
	}
	markUnmeasured(p, src)
	p.Sources = src
	return p
}

// maxOver is the profile that covers every one of the pods': each
// field's highest figure over them, with its source.
func maxOver(ps []*plan.Profile) *plan.Profile {
	out := &plan.Profile{Version: plan.ProfileVersion}
	src := map[string]string{}
	f := fieldsOf(out)
	for _, p := range ps {
		for name, v := range fieldsOf(p) {
			if p.Sources[name] == plan.SourceUnmeasured {
				continue
			}
			if *v > *f[name] || src[name] == "" {
				*f[name], src[name] = max(*v, *f[name]), p.Sources[name]
			}
		}
	}
	markUnmeasured(out, src)
	out.Sources = src
	return out
}

// fieldsOf are the figures a metrics endpoint can give, by JSON name.
func fieldsOf(p *plan.Profile) map[string]*int64 {
	return map[string]*int64{
		"loadedClasses": &p.LoadedClasses, "peakJavaThreads": &p.PeakJavaThreads,
		"codeCacheUsedBytes": &p.CodeCacheUsedBytes, "metaspaceUsedBytes": &p.MetaspaceUsedBytes,
		"classSpaceUsedBytes": &p.ClassSpaceUsedBytes, "directMemoryBytes": &p.DirectMemoryBytes,
		"mappedBufferBytes": &p.MappedBufferBytes, "liveHeapBytes": &p.LiveHeapBytes,
		"peakUncappedNativeBytes": &p.PeakUncappedNativeBytes,
	}
}
