package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/size"
)

type bodyKind int

const (
	bodyNone  bodyKind = iota
	bodyText           // body: or json:, may hold per-request variables
	bodyBytes          // body_file: or body_size:, fixed bytes
	bodyMultipart
)

type bodySpec struct {
	kind        bodyKind
	text        *template
	data        []byte
	contentType string
	mp          *multipartSpec
}

type multipartSpec struct {
	field       string
	filename    *template
	content     *template // inline content, or
	data        []byte    // generated content
	contentType string
}

// boundary is fixed so that request bytes can be built once; the generated
// content is alphanumeric and cannot contain it.
const boundary = "jvmfit-7c1e9a4f0b2d"

// maxBody bounds generated bodies: a load generator that allocates gigabytes
// per request measures itself, not the service.
const maxBody = 64 << 20

func compileBody(ex *expander, rr *rawRequest, baseDir string) (bodySpec, error) {
	set := 0
	for _, on := range []bool{rr.Body != nil, rr.BodyFile != "", rr.BodySize != "", rr.JSON != nil, rr.Multipart != nil} {
		if on {
			set++
		}
	}
	if set > 1 {
		return bodySpec{}, errors.New("give only one of body:, body_file:, body_size:, json:, multipart:")
	}
	switch {
	case rr.Body != nil:
		t, err := ex.compile(*rr.Body)
		if err != nil {
			return bodySpec{}, fmt.Errorf("body: %s", errText(err))
		}
		return bodySpec{kind: bodyText, text: t}, nil
	case rr.JSON != nil:
		js, err := json.Marshal(jsonable(rr.JSON))
		if err != nil {
			return bodySpec{}, fmt.Errorf("json: %s", errText(err))
		}
		t, err := ex.compile(string(js))
		if err != nil {
			return bodySpec{}, fmt.Errorf("json: %s", errText(err))
		}
		return bodySpec{kind: bodyText, text: t, contentType: "application/json"}, nil
	case rr.BodyFile != "":
		p, err := ex.expand(rr.BodyFile)
		if err != nil {
			return bodySpec{}, fmt.Errorf("body_file: %s", errText(err))
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(baseDir, p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return bodySpec{}, fmt.Errorf("body_file: cannot read %s: %s", p, errText(unwrapPath(err)))
		}
		return bodySpec{kind: bodyBytes, data: data}, nil
	case rr.BodySize != "":
		n, err := sizeValue(ex, rr.BodySize)
		if err != nil {
			return bodySpec{}, fmt.Errorf("body_size: %s", errText(err))
		}
		return bodySpec{kind: bodyBytes, data: generated(n)}, nil
	case rr.Multipart != nil:
		return compileMultipart(ex, rr.Multipart)
	}
	return bodySpec{}, nil
}

func compileMultipart(ex *expander, m *rawMultipart) (bodySpec, error) {
	mp := &multipartSpec{field: m.Field, contentType: m.ContentType}
	if mp.field == "" {
		mp.field = "file"
	}
	if mp.contentType == "" {
		mp.contentType = "application/octet-stream"
	}
	name := m.Filename
	if name == "" {
		name = "data.bin"
	}
	var err error
	if mp.filename, err = ex.compile(name); err != nil {
		return bodySpec{}, fmt.Errorf("multipart.filename: %s", errText(err))
	}
	switch {
	case m.Content != nil && m.Size != "":
		return bodySpec{}, errors.New("multipart: give content: or size:, not both")
	case m.Content != nil:
		if mp.content, err = ex.compile(*m.Content); err != nil {
			return bodySpec{}, fmt.Errorf("multipart.content: %s", errText(err))
		}
	default:
		n, err := sizeValue(ex, m.Size)
		if err != nil {
			return bodySpec{}, fmt.Errorf("multipart.size: %s", errText(err))
		}
		mp.data = generated(n)
	}
	return bodySpec{kind: bodyMultipart, mp: mp, contentType: "multipart/form-data; boundary=" + boundary}, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func sizeValue(ex *expander, s string) (int, error) {
	if s == "" {
		return 0, errors.New("missing (give a size in bytes, e.g. 2000 or 4Ki)")
	}
	v, err := ex.expand(s)
	if err != nil {
		return 0, err
	}
	n, err := size.Parse(v)
	if err != nil {
		return 0, err
	}
	if n > maxBody {
		return 0, fmt.Errorf("%d bytes is more than the %d MiB limit", n, maxBody>>20)
	}
	return int(n), nil
}

// jsonable turns YAML maps with non-string keys into JSON objects.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

// generated returns n bytes of deterministic printable text in 64-byte
// lines, so that uploads look like the seed's text files and compress the
// same way on every run.
func generated(n int) []byte {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		if i%64 == 63 {
			b[i] = '\n'
			continue
		}
		b[i] = alphabet[(i/64*7+i)%len(alphabet)]
	}
	return b
}

func (b *bodySpec) static() bool {
	for _, t := range b.templates() {
		if !t.static() {
			return false
		}
	}
	return true
}

func (b *bodySpec) templates() []*template {
	var ts []*template
	if b.text != nil {
		ts = append(ts, b.text)
	}
	if b.mp != nil {
		ts = append(ts, b.mp.filename)
		if b.mp.content != nil {
			ts = append(ts, b.mp.content)
		}
	}
	return ts
}

// append writes the body bytes for one request.
func (b *bodySpec) append(dst []byte, c *Vars) []byte {
	switch b.kind {
	case bodyText:
		return b.text.append(dst, c)
	case bodyBytes:
		return append(dst, b.data...)
	case bodyMultipart:
		m := b.mp
		dst = append(dst, "--"+boundary+"\r\nContent-Disposition: form-data; name=\""...)
		dst = append(dst, m.field...)
		dst = append(dst, "\"; filename=\""...)
		dst = m.filename.append(dst, c)
		dst = append(dst, "\"\r\nContent-Type: "...)
		dst = append(dst, m.contentType...)
		dst = append(dst, "\r\n\r\n"...)
		if m.content != nil {
			dst = m.content.append(dst, c)
		} else {
			dst = append(dst, m.data...)
		}
		return append(dst, "\r\n--"+boundary+"--\r\n"...)
	}
	return dst
}
