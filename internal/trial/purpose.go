package trial

// What a trial was for in its experiment (Spec.Purpose). "" is a trial
// stored before roles were kept, or one of an experiment with no roles
// (run, sweep, compare).
const (
	PurposeProfile  = "profile"  // tune's first trial: the app measured at a generous limit
	PurposeTraining = "training" // tune: writes a candidate's CDS archive or AOT cache
	PurposeSearch   = "search"   // one limit of a search (minmem's, tune's)
	PurposeSoak     = "soak"     // the proof of an answer, run as recommended
	PurposeRepeat   = "repeat"   // a deliberate rerun of a search trial at the same point
)

// OnApp says whether the trial's verdict is about the app: not when
// jvmfit itself failed in it (KindError), nor when another process took
// the app's port (KindPortInUse). Such a trial is stored but never reused,
// searched on, or shown as the app's result. It is the one such rule.
func (r *Result) OnApp() bool { return r.Kind != KindError && r.Kind != KindPortInUse }
