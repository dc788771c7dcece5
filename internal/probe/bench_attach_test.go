package probe

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

// The cost of the slower readings on a small JVM with NMT:
// go test -run X -bench Slow ./internal/probe/
func BenchmarkSlowSources(b *testing.B) {
	p := jvmtest.Start(b, jvmtest.Java17, "-Xmx64m", "-XX:NativeMemoryTracking=summary")
	ctx := context.Background()
	if _, err := Jcmd(ctx, "", p.Pid, "VM.native_memory summary"); err != nil {
		b.Fatal(err) // opens the socket, outside the timing
	}
	b.Run("attach-nmt-summary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Jcmd(ctx, "", p.Pid, "VM.native_memory summary"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("smaps", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := readSmaps("", p.Pid); err != nil {
				b.Fatal(err)
			}
		}
	})
}
