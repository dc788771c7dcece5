package load

import (
	"strconv"
	"sync"
)

// wireReq turns a Request into HTTP/1.1 bytes for one target. Requests
// without per-request variables are built once and shared read-only.
type wireReq struct {
	req    *Request
	addr   string // host:port to dial
	prefix string // the base URL's path, for relative URLs
	head   []byte // " HTTP/1.1\r\nHost: ...\r\n" after the request target
	isHEAD bool
	fixed  []byte // the whole request, when it never changes
	static bool
}

func newWireReq(r *Request, hostPort, prefix string) *wireReq {
	w := &wireReq{req: r, addr: hostPort, prefix: prefix, isHEAD: r.Method == "HEAD"}
	w.head = []byte(" HTTP/1.1\r\nHost: " + hostPort + "\r\nUser-Agent: jvmfit\r\n")
	w.static = r.url.static() && r.body.static()
	for _, h := range r.headers {
		w.static = w.static && h.value.static()
	}
	if w.static {
		w.fixed = w.build(nil, nil, &vctx{})
	}
	return w
}

var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// build appends the request to dst; scratch holds the body while the
// header's Content-Length is written.
func (w *wireReq) build(dst []byte, scratch *[]byte, c *vctx) []byte {
	r := w.req
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

// bytes returns the request for c: the shared bytes, or a pooled buffer
// that the caller hands back with release.
func (w *wireReq) bytes(c *vctx) ([]byte, *[]byte) {
	if w.static {
		return w.fixed, nil
	}
	bp := bodyPool.Get().(*[]byte)
	scratch := bodyPool.Get().(*[]byte)
	*bp = w.build((*bp)[:0], scratch, c)
	release(scratch)
	return *bp, bp
}

func release(bp *[]byte) {
	if bp != nil && cap(*bp) <= 1<<20 {
		bodyPool.Put(bp)
	}
}
