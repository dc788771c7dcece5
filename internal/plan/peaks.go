package plan

// RaisePeaks raises p's measured figures to q's where q's are higher: the
// profile that covers both runs (a recording's windows, a restart's peaks
// over the file it left). The archive's two figures move together, from
// the run whose archive was the larger resident, since the written part is
// a share of that run's resident size. What a profile was measured under
// (app, JDK, limits, sources) is p's and stays.
func (p *Profile) RaisePeaks(q *Profile) {
	p.LoadedClasses = max(p.LoadedClasses, q.LoadedClasses)
	p.PeakThreads = max(p.PeakThreads, q.PeakThreads)
	p.PeakJavaThreads = max(p.PeakJavaThreads, q.PeakJavaThreads)
	p.CodeCacheUsedBytes = max(p.CodeCacheUsedBytes, q.CodeCacheUsedBytes)
	p.MetaspaceUsedBytes = max(p.MetaspaceUsedBytes, q.MetaspaceUsedBytes)
	p.ClassSpaceUsedBytes = max(p.ClassSpaceUsedBytes, q.ClassSpaceUsedBytes)
	p.DirectMemoryBytes = max(p.DirectMemoryBytes, q.DirectMemoryBytes)
	p.MappedBufferBytes = max(p.MappedBufferBytes, q.MappedBufferBytes)
	p.LiveHeapBytes = max(p.LiveHeapBytes, q.LiveHeapBytes)
	if q.CDSArchiveBytes > p.CDSArchiveBytes {
		p.CDSArchiveBytes, p.CDSArchiveAnonBytes = q.CDSArchiveBytes, q.CDSArchiveAnonBytes
	}
	p.PeakUncappedNativeBytes = max(p.PeakUncappedNativeBytes, q.PeakUncappedNativeBytes)
	p.NMTPeakBytes = RaiseEach(p.NMTPeakBytes, q.NMTPeakBytes)
}

// RaiseEach raises peak's figures to reading's, key by key (NMT's
// categories), adding the keys peak lacks; it returns peak, made when nil
// and reading has a figure.
func RaiseEach(peak, reading map[string]int64) map[string]int64 {
	if len(reading) == 0 {
		return peak
	}
	if peak == nil {
		peak = make(map[string]int64, len(reading))
	}
	for k, v := range reading {
		peak[k] = max(peak[k], v)
	}
	return peak
}
