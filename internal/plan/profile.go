package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// Profile is the measured needs of one app, written as JSON:
//
//	{"app": "petclinic", "loadedClasses": 14500, "peakThreads": 42,
//	 "codeCacheUsedBytes": 31457280, "metaspaceUsedBytes": 83886080,
//	 "classSpaceUsedBytes": 10485760, "directMemoryBytes": 4194304,
//	 "liveHeapBytes": 41943040}
//
// Every field is optional; a zero field keeps the scaled default for its
// region. Figures are peaks seen under load, not reservations.
type Profile struct {
	App                 string `json:"app,omitempty"`
	LoadedClasses       int64  `json:"loadedClasses,omitempty"`
	PeakThreads         int64  `json:"peakThreads,omitempty"`
	CodeCacheUsedBytes  int64  `json:"codeCacheUsedBytes,omitempty"`
	MetaspaceUsedBytes  int64  `json:"metaspaceUsedBytes,omitempty"`
	ClassSpaceUsedBytes int64  `json:"classSpaceUsedBytes,omitempty"`
	DirectMemoryBytes   int64  `json:"directMemoryBytes,omitempty"`
	LiveHeapBytes       int64  `json:"liveHeapBytes,omitempty"`
}

// LoadProfile reads and checks a profile file.
func LoadProfile(path string) (*Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read profile: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p Profile
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("bad profile %s: %v (see docs/launcher.md for the format)", path, err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("bad profile %s: %v", path, err)
	}
	return &p, nil
}

// Validate rejects negative or absurd figures.
func (p *Profile) Validate() error {
	for name, v := range map[string]int64{
		"loadedClasses": p.LoadedClasses, "peakThreads": p.PeakThreads,
		"codeCacheUsedBytes": p.CodeCacheUsedBytes, "metaspaceUsedBytes": p.MetaspaceUsedBytes,
		"classSpaceUsedBytes": p.ClassSpaceUsedBytes, "directMemoryBytes": p.DirectMemoryBytes,
		"liveHeapBytes": p.LiveHeapBytes,
	} {
		if v < 0 {
			return fmt.Errorf("%s is negative (%d)", name, v)
		}
	}
	if p.PeakThreads > 100000 {
		return fmt.Errorf("peakThreads %d is not plausible", p.PeakThreads)
	}
	return nil
}
