package upstream

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// ReadyPrefix starts the one line Main prints once it listens, followed by
// the port: the service reads it instead of guessing a free port, which
// another process could take in between.
const ReadyPrefix = "upstream listening on 127.0.0.1:"

// Main runs `jvmfit upstream --size N --latency L [--port P]` until
// SIGTERM or SIGINT, and returns the exit code: 2 for bad flags.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("upstream", flag.ContinueOnError)
	// flag's own message, one line; its usage text would make it many.
	fs.SetOutput(io.Discard)
	sz := fs.String("size", "0", "bytes in every response (e.g. 512, 4Ki)")
	lat := fs.String("latency", "0", `delay before each answer: "fixed 1ms", "uniform 100us 2ms" or "exponential 300us"`)
	port := fs.Int("port", 0, "port on 127.0.0.1 (0 = a free one, printed)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "jvmfit upstream: %v (it takes --size, --latency and --port)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jvmfit upstream: unexpected argument %q: it takes only --size, --latency and --port\n", fs.Arg(0))
		return 2
	}
	n, err := size.Parse(*sz)
	if err != nil || n < 0 {
		fmt.Fprintf(stderr, "jvmfit upstream: --size %q: give a number of bytes such as 512 or 4Ki\n", *sz)
		return 2
	}
	l, err := ParseLatency(*lat)
	if err != nil {
		fmt.Fprintf(stderr, "jvmfit upstream: --%v\n", err)
		return 2
	}
	s, err := Listen(*port, Config{ResponseBytes: n, Latency: l})
	if err != nil {
		fmt.Fprintf(stderr, "jvmfit upstream: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = s.Shutdown(sctx)
		s.Close()
	}()
	fmt.Fprintf(stdout, "%s%d (%d bytes per response, latency %s)\n", ReadyPrefix, s.Port(), n, l)
	if err := s.Serve(); err != nil {
		fmt.Fprintf(stderr, "jvmfit upstream: %v\n", err)
		return 1
	}
	return 0
}
