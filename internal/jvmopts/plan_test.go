package jvmopts

import (
	"errors"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// minmem stores a limit the planner refuses as a KO without running it,
// and stops on any other error: that needs the refusal to survive wrapping.
// Trials plan by exec's rule, which plans even at 8 MiB (java then fails
// to start, as under exec); the strict switch keeps the refusal.
func TestPlannedRefusalIsDetectable(t *testing.T) {
	if _, err := Resolve(Request{Mode: "jvmfit", JDK: jdk.JDK{Version: 17, Full: "17.0.15"}, MemoryBytes: 8 * size.MiB, CPUs: 1}); err != nil {
		t.Fatalf("8Mi without Strict: %v; want exec's plan, no refusal", err)
	}
	_, err := Resolve(Request{Mode: "jvmfit", JDK: jdk.JDK{Version: 17, Full: "17.0.15"}, MemoryBytes: 8 * size.MiB, CPUs: 1, Strict: true})
	var ref *plan.RefusedError
	if !errors.As(err, &ref) {
		t.Fatalf("8Mi: err = %v (%T); want a wrapped *plan.RefusedError", err, err)
	}
	if ref.LimitBytes != 8*size.MiB {
		t.Fatalf("refused limit %d; want 8Mi", ref.LimitBytes)
	}
	if _, err := Resolve(Request{Mode: "jvmfit:nonsense", JDK: jdk.JDK{Version: 17, Full: "17.0.15"}, MemoryBytes: 8 * size.MiB}); err == nil || errors.As(err, &ref) {
		t.Fatalf("a bad goal gave %v; want a plain error, not a refusal", err)
	}
}
