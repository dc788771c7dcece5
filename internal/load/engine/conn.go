//go:build linux

package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// The client speaks plain HTTP/1.1 over kept-alive TCP connections, one
// request at a time per connection. It is hand-written rather than net/http
// because the generator shares the CPU with the service it measures: it
// writes prebuilt request bytes and skims the response (status, framing)
// without building header maps or body readers, and it runs on the phase's
// event loop (loop.go), not on Go's netpoller.

type conn struct {
	s    *sock
	br   *bufio.Reader
	used bool // has answered before: a failure may be a stale keep-alive
}

// client belongs to one task; it keeps one connection per address.
type client struct {
	t     *task
	conns map[string]*conn
	// The connection used last, and its address: nearly every scenario has
	// one target, and this spares a map lookup per request.
	lastAddr string
	last     *conn
}

func newClient(t *task) *client {
	return &client{t: t, conns: make(map[string]*conn, 1)}
}

var errAborted = errors.New("run cancelled")

func (cl *client) get(addr string, deadline time.Time) (*conn, error) {
	if cl.last != nil && cl.lastAddr == addr {
		return cl.last, nil
	}
	if c := cl.conns[addr]; c != nil {
		cl.last, cl.lastAddr = c, addr
		return c, nil
	}
	s, err := cl.t.l.dial(cl.t, addr, deadline)
	if err != nil {
		return nil, err
	}
	c := &conn{s: s, br: bufio.NewReaderSize(s, 8192)}
	cl.conns[addr] = c
	cl.last, cl.lastAddr = c, addr
	return c, nil
}

func (cl *client) drop(addr string) {
	if c := cl.conns[addr]; c != nil {
		c.s.close()
		delete(cl.conns, addr)
		if cl.last == c {
			cl.last = nil
		}
	}
}

func (cl *client) close() {
	for addr := range cl.conns {
		cl.drop(addr)
	}
}

// do sends one request and reads the whole answer. A connection that had
// answered before and now fails before any byte came back was most likely
// closed idle by the server: the request is sent once more on a new one.
func (cl *client) do(w *scenario.Wire, data []byte, deadline time.Time) (status int, in int64, err error) {
	for attempt := 0; ; attempt++ {
		c, err := cl.get(w.Addr, deadline)
		if err != nil {
			return 0, 0, err
		}
		c.s.deadline = deadline
		var keep, got bool
		if _, err = c.s.Write(data); err == nil {
			status, in, keep, got, err = c.read(w.IsHEAD)
			if err == nil {
				c.used = true
				if !keep {
					cl.drop(w.Addr)
				}
				return status, in, nil
			}
		}
		reused := c.used
		cl.drop(w.Addr)
		if attempt == 0 && reused && !got && staleConn(err) {
			continue
		}
		return status, in, err
	}
}

func staleConn(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

var errMalformed = errors.New("malformed HTTP response")

// read parses the status line and the framing headers, and discards the
// body. got says whether any byte arrived.
func (c *conn) read(isHEAD bool) (status int, in int64, keep, got bool, err error) {
	for {
		line, n, err := c.line()
		in += int64(n)
		if n > 0 {
			got = true
		}
		if err != nil {
			return 0, in, false, got, err
		}
		if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
			return 0, in, false, got, errMalformed
		}
		status = int(line[9]-'0')*100 + int(line[10]-'0')*10 + int(line[11]-'0')
		if status < 100 || status > 999 {
			return 0, in, false, got, errMalformed
		}
		f := framing{length: -1, keep: line[7] == '1'}
		hn, err := c.headers(&f)
		in += hn
		if err != nil {
			return status, in, false, got, err
		}
		keep = f.keep
		if status >= 100 && status < 200 && status != 101 {
			continue // an interim answer; the real one follows
		}
		switch {
		case isHEAD || status == 204 || status == 304 || status == 101:
		case f.chunked:
			n, err := c.chunks()
			in += n
			if err != nil {
				return status, in, false, got, err
			}
		case f.length >= 0:
			n, err := c.br.Discard(int(f.length))
			in += int64(n)
			if err != nil {
				return status, in, false, got, unexpected(err)
			}
		default:
			// No framing: the body ends when the server closes.
			n, err := io.Copy(io.Discard, c.br)
			in += n
			return status, in, false, got, err
		}
		return status, in, keep, got, nil
	}
}

// framing is what the headers say about the body and the connection.
type framing struct {
	length  int64 // Content-Length, -1 if none
	chunked bool
	keep    bool // the connection stays open after this answer
}

// headers reads the header lines up to the empty one, noting the framing
// headers in f; it returns the bytes read.
func (c *conn) headers(f *framing) (int64, error) {
	var in int64
	for {
		h, n, err := c.line()
		in += int64(n)
		if err != nil {
			return in, err
		}
		h = trimEOL(h)
		if len(h) == 0 {
			return in, nil
		}
		i := bytes.IndexByte(h, ':')
		if i < 0 {
			continue
		}
		// Most headers are skipped on their length alone.
		name := h[:i]
		switch {
		case len(name) == len("content-length") && equalFold(name, "content-length"):
			if f.length = parseInt(bytes.TrimSpace(h[i+1:])); f.length < 0 {
				return in, errMalformed
			}
		case len(name) == len("transfer-encoding") && equalFold(name, "transfer-encoding"):
			f.chunked = bytes.Contains(bytes.ToLower(h[i+1:]), []byte("chunked"))
		case len(name) == len("connection") && equalFold(name, "connection"):
			switch value := bytes.TrimSpace(h[i+1:]); {
			case equalFold(value, "close"):
				f.keep = false
			case equalFold(value, "keep-alive"):
				f.keep = true
			}
		}
	}
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// line returns the next line (a prefix of it if longer than the buffer,
// which only matters for headers we ignore) and its full length.
func (c *conn) line() ([]byte, int, error) {
	line, err := c.br.ReadSlice('\n')
	n := len(line)
	if err == bufio.ErrBufferFull {
		head := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = c.br.ReadSlice('\n')
			n += len(line)
		}
		line = head
	}
	if err != nil && n > 0 {
		err = unexpected(err)
	}
	return line, n, err
}

func (c *conn) chunks() (int64, error) {
	var in int64
	for {
		line, n, err := c.line()
		in += int64(n)
		if err != nil {
			return in, unexpected(err)
		}
		line = trimEOL(line)
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		size := parseHex(bytes.TrimSpace(line))
		if size < 0 {
			return in, errMalformed
		}
		if size == 0 {
			for { // trailers, up to the empty line
				t, n, err := c.line()
				in += int64(n)
				if err != nil {
					return in, unexpected(err)
				}
				if len(trimEOL(t)) == 0 {
					return in, nil
				}
			}
		}
		d, err := c.br.Discard(int(size) + 2)
		in += int64(d)
		if err != nil {
			return in, unexpected(err)
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func parseInt(b []byte) int64 {
	if len(b) == 0 || len(b) > 18 {
		return -1
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

func parseHex(b []byte) int64 {
	if len(b) == 0 || len(b) > 15 {
		return -1
	}
	var n int64
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			n = n*16 + int64(c-'0')
		case 'a' <= c && c <= 'f':
			n = n*16 + int64(c-'a'+10)
		case 'A' <= c && c <= 'F':
			n = n*16 + int64(c-'A'+10)
		default:
			return -1
		}
	}
	return n
}

// ErrorKey is an error as a short text without ephemeral ports, so that
// equal failures count together.
func ErrorKey(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	switch {
	case errors.Is(err, errAborted):
		return errAborted.Error()
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed by the server mid-response"
	case errors.Is(err, io.EOF):
		return "connection closed by the server before answering"
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		var se *os.SyscallError
		if errors.As(oe.Err, &se) {
			return fmt.Sprintf("%s: %s", oe.Op, se.Err)
		}
		return fmt.Sprintf("%s: %s", oe.Op, oe.Err)
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
