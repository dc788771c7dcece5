package scenario

import (
	"strconv"
	"sync"
)

// Wire is a Request as HTTP/1.1 bytes for one target: the expansion of the
// scenario's templates into what goes on the connection. Requests without
// per-request variables are built once and shared read-only.
type Wire struct {
	Req    *Request
	Addr   string // host:port to dial
	IsHEAD bool   // its answer has no body, whatever its headers say
	Fixed  []byte // the whole request, when Static
	Static bool   // the bytes never change
	// Label names the request in error texts: its method and URL, with
	// per-request variables left as ${name}, so that one failure of many
	// requests to the same URL pattern counts as one error kind.
	Label  string
	prefix string // the base URL's path, for relative URLs
	head   []byte // " HTTP/1.1\r\nHost: ...\r\n" after the request target
}

// NewWire prepares r for the target hostPort; prefix is the base URL's
// path ("" for none) put before relative URLs.
func NewWire(r *Request, hostPort, prefix string) *Wire {
	w := &Wire{Req: r, Addr: hostPort, prefix: prefix, IsHEAD: r.Method == "HEAD"}
	w.Label = r.Method + " http://" + hostPort + prefix + r.url.String()
	w.head = []byte(" HTTP/1.1\r\nHost: " + hostPort + "\r\nUser-Agent: jvmfit\r\n")
	w.Static = r.url.static() && r.body.static()
	for _, h := range r.headers {
		w.Static = w.Static && h.value.static()
	}
	if w.Static {
		w.Fixed = w.Build(nil, nil, &Vars{})
	}
	return w
}

var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Build appends the request for c to dst; scratch (may be nil) holds the
// body while the header's Content-Length is written.
func (w *Wire) Build(dst []byte, scratch *[]byte, c *Vars) []byte {
	r := w.Req
	var body []byte
	if r.body.kind != bodyNone {
		if scratch == nil {
			body = r.body.append(nil, c)
		} else {
			*scratch = r.body.append((*scratch)[:0], c)
			body = *scratch
		}
	}
	dst = append(dst, r.Method...)
	dst = append(dst, ' ')
	dst = append(dst, w.prefix...)
	dst = r.url.append(dst, c)
	dst = append(dst, w.head...)
	for _, h := range r.headers {
		dst = append(dst, h.name...)
		dst = append(dst, ": "...)
		dst = h.value.append(dst, c)
		dst = append(dst, "\r\n"...)
	}
	if r.body.contentType != "" {
		dst = append(dst, "Content-Type: "...)
		dst = append(dst, r.body.contentType...)
		dst = append(dst, "\r\n"...)
	}
	if body != nil || r.Method == "POST" || r.Method == "PUT" || r.Method == "PATCH" {
		dst = append(dst, "Content-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(body)), 10)
		dst = append(dst, "\r\n"...)
	}
	dst = append(dst, "\r\n"...)
	return append(dst, body...)
}

// Bytes returns the request for c: the shared bytes, or a pooled buffer
// that the caller hands back with Release.
func (w *Wire) Bytes(c *Vars) ([]byte, *[]byte) {
	if w.Static {
		return w.Fixed, nil
	}
	bp := bodyPool.Get().(*[]byte)
	scratch := bodyPool.Get().(*[]byte)
	*bp = w.Build((*bp)[:0], scratch, c)
	Release(scratch)
	return *bp, bp
}

// Release hands a buffer from Bytes back to the pool (nil is ignored).
func Release(bp *[]byte) {
	if bp != nil && cap(*bp) <= 1<<20 {
		bodyPool.Put(bp)
	}
}
