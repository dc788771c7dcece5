package upstream

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Config is one upstream's behaviour.
type Config struct {
	ResponseBytes int64
	Latency       Latency
}

// Server answers every request, whatever its method and path, with
// ResponseBytes of fixed content after one Latency sample. It reads the
// request body and discards it. It needs no authentication: it listens on
// loopback only, holds no data, changes nothing, and what it serves is
// the same bytes to anyone (docs/services.md).
type Server struct {
	cfg  Config
	body []byte
	ln   net.Listener
	srv  *http.Server

	mu  sync.Mutex
	rng *rand.Rand
}

// Listen binds 127.0.0.1:port (0 = a free port).
func Listen(port int, cfg Config) (*Server, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	body := make([]byte, cfg.ResponseBytes)
	for i := range body {
		body[i] = 'a' + byte(i%26)
	}
	s := &Server{cfg: cfg, body: body, ln: ln, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 4))}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 5 * time.Minute}
	return s, nil
}

// Port is the port it listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Serve serves until Close.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops at once: a trial's upstream has nothing to drain.
func (s *Server) Close() error { return s.srv.Close() }

// Shutdown lets requests in flight finish, up to ctx.
func (s *Server) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }

func (s *Server) delay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.Latency.Sample(s.rng)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var buf [4096]byte
	for {
		if _, err := r.Body.Read(buf[:]); err != nil {
			break
		}
	}
	if d := s.delay(); d > 0 {
		wait(d)
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.Itoa(len(s.body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.body)
}
