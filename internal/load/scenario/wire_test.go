package scenario

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

func TestMultipartBodyParses(t *testing.T) {
	sc, err := Parse([]byte(`
base: http://127.0.0.1:9
vars: {files: 3}
requests:
  up:
    method: POST
    url: /u
    multipart: {field: doc, filename: "n${file}.txt", content: "hello ${worker}"}
phases: [{requests: 1}]
`), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWire(sc.Requests[0], "127.0.0.1:9", "")
	data, buf := w.Bytes(&Vars{Worker: 7, File: 2})
	defer Release(buf)
	req, err := http.ReadRequest(bufioReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := req.ParseMultipartForm(1 << 20); err != nil {
		t.Fatal(err)
	}
	f, h, err := req.FormFile("doc")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	if h.Filename != "n2.txt" || string(b) != "hello 7" {
		t.Errorf("file %q content %q", h.Filename, b)
	}
}

func TestBodiesAndHeaders(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.bin"), []byte("FILEBODY"), 0o644)
	sc, err := Parse([]byte(`
base: http://127.0.0.1:9/api
requests:
  j: {method: POST, url: "s/${iter}", json: {intList: [{list: [3, 1, 2]}], n: "${worker}"}, headers: {X-A: "b"}}
  f: {method: PUT, url: /f, body_file: b.bin}
  g: {url: /g, body_size: 1Ki}
  t: {method: POST, url: /t, body: "w=${worker}"}
phases: [{requests: 1, sequence: [j]}]
`), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{}
	for _, r := range sc.Requests {
		data, _ := NewWire(r, "127.0.0.1:9", "/api").Bytes(&Vars{Worker: 4, Iter: 2})
		req, err := http.ReadRequest(bufioReader(data))
		if err != nil {
			t.Fatalf("%s: %v\n%s", r.Name, err, data)
		}
		b, _ := io.ReadAll(req.Body)
		bodies[r.Name] = req.Method + " " + req.URL.String() + " " + req.Header.Get("Content-Type") + " " + string(b)
		if r.Name == "j" && req.Header.Get("X-A") != "b" {
			t.Errorf("header X-A missing: %v", req.Header)
		}
	}
	want := map[string]string{
		"j": `POST /api/s/2 application/json {"intList":[{"list":[3,1,2]}],"n":"4"}`,
		"f": "PUT /api/f  FILEBODY",
		"t": "POST /api/t  w=4",
	}
	for k, v := range want {
		if bodies[k] != v {
			t.Errorf("%s: got %q, want %q", k, bodies[k], v)
		}
	}
	if n := len(bodies["g"]) - len("GET /api/g  "); n != 1024 {
		t.Errorf("body_size 1Ki gave %d bytes", n)
	}
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
