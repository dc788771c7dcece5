//go:build linux

package probe

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/hsperf"
	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

// The cost of one reading of each source, on a JVM with 300 MiB of heap in
// use: go test -run X -bench . ./internal/probe/
func BenchmarkSources(b *testing.B) {
	p := jvmtest.Start(b, jvmtest.Java17, "-Xmx512m", "-Xms512m", "-XX:+AlwaysPreTouch")
	p.Do(b, "alloc 300")
	r, err := newProcReader("", p.Pid)
	if err != nil {
		b.Fatal(err)
	}
	path := hsperf.PathFor(p.Pid)
	b.Run("proc-without-pss", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var s Sample
			r.read(&s, false)
		}
	})
	b.Run("proc-with-pss", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var s Sample
			r.read(&s, true)
		}
	})
	b.Run("smaps", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := readSmaps("", p.Pid); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hsperf", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			snap, err := hsperf.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			snap.JVM()
		}
	})
}
