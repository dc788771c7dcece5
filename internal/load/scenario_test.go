package load

import (
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The order seed 001's driver sends in: worker w of W starts at file
// w*F/W, takes the next file at every request, and uploads every 10th.
func expectedSeed001(w, workers, files, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		file := (w*files/workers + i) % files
		kind := "download"
		if i%10 == 9 {
			kind = "upload"
		}
		out = append(out, fmt.Sprintf("%s f%d", kind, file))
	}
	return out
}

func TestSeed001SequencePerWorker(t *testing.T) {
	noLeak(t)
	var mu sync.Mutex
	seen := map[string][]string{} // worker -> "kind fN"
	var warm []string
	var badMultipart []string
	s := server(t, func(w http.ResponseWriter, r *http.Request) {
		kind := strings.TrimPrefix(r.URL.Path, "/")
		entry := kind + " " + r.URL.Query().Get("name")
		if kind == "upload" {
			if err := checkUpload(r, r.URL.Query().Get("name")+".txt", 2000); err != nil {
				mu.Lock()
				badMultipart = append(badMultipart, err.Error())
				mu.Unlock()
			}
		}
		mu.Lock()
		if r.Header.Get("X-Phase") == "" && len(warm) < 20 && kind == "upload" && r.Header.Get("X-Worker") == "0" && r.Header.Get("X-Iter") == strconv.Itoa(len(warm)) {
			warm = append(warm, entry)
		} else {
			seen[r.Header.Get("X-Worker")] = append(seen[r.Header.Get("X-Worker")], entry)
		}
		mu.Unlock()
	})
	sc, err := LoadScenario("testdata/seed001.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, sc, Options{Base: s.URL})
	if len(badMultipart) > 0 {
		t.Fatalf("multipart bodies did not parse: %v", badMultipart[0])
	}
	for i, e := range warm {
		if want := fmt.Sprintf("upload f%d", i); e != want {
			t.Fatalf("warm-up request %d = %q, want %q", i, e, want)
		}
	}
	if len(warm) != 20 {
		t.Fatalf("warm-up sent %d uploads, want 20", len(warm))
	}
	for w := 0; w < 4; w++ {
		got := seen[strconv.Itoa(w)]
		want := expectedSeed001(w, 4, 20, 25)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("worker %d sent\n%v\nwant\n%v", w, got, want)
		}
	}
	m := res.Phases[1]
	if m.Requests != 100 || m.Success != 1 || m.ByRequest["upload"].Requests != 8 || m.ByRequest["download"].Requests != 92 {
		t.Errorf("measure phase: %d requests, success %v, by request %+v", m.Requests, m.Success, m.ByRequest)
	}
	if res.Total.Requests != 100 || res.Total.ByRequest["upload"].Requests != 8 {
		t.Errorf("total counts %d requests: the warm-up must not be recorded", res.Total.Requests)
	}
	if m.BytesOut < 8*2000 {
		t.Errorf("bytes out %d: uploads carry 2000-byte files", m.BytesOut)
	}
}

// checkUpload parses a multipart upload with Go's own reader.
func checkUpload(r *http.Request, filename string, size int) error {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return fmt.Errorf("content type %q: %v", r.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	part, err := mr.NextPart()
	if err != nil {
		return err
	}
	if part.FormName() != "file" || part.FileName() != filename {
		return fmt.Errorf("part %q file %q, want file %q", part.FormName(), part.FileName(), filename)
	}
	data, err := io.ReadAll(part)
	if err != nil {
		return err
	}
	if len(data) != size {
		return fmt.Errorf("file has %d bytes, want %d", len(data), size)
	}
	if _, err := mr.NextPart(); err != io.EOF {
		return fmt.Errorf("expected one part, then EOF: %v", err)
	}
	return nil
}

func TestSequenceUnitsWrapAndSpread(t *testing.T) {
	p := &Phase{Workers: 3, Steps: []string{"a", "a", "b"}, FileOffset: "spread"}
	us := newVusers(p, 7, 80, map[string]int{"a": 0, "b": 1})
	var got []string
	for i := 0; i < 8; i++ {
		r, c := us[2].next()
		got = append(got, fmt.Sprintf("%d:f%d:v%d", r, c.file, c.version))
	}
	// worker 2 of 3 with 7 files starts at 4 and wraps after 6.
	want := "0:f4:v1 0:f5:v1 1:f6:v1 0:f0:v1 0:f1:v1 1:f2:v1 0:f3:v1 0:f4:v2"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	p.FileOffset = "zero"
	if _, c := newVusers(p, 7, 80, map[string]int{"a": 0, "b": 1})[2].next(); c.file != 0 {
		t.Errorf("file_offset zero: first file %d", c.file)
	}
}

func TestMixAndEvery(t *testing.T) {
	sc, err := ParseScenario([]byte(`
base: http://127.0.0.1:9
vars: {files: 100}
requests:
  get: {url: "/g/${file}"}
  put: {url: "/p", method: PUT, body_size: 10}
  del: {url: "/d/${file}", method: DELETE}
phases:
  - {model: closed, workers: 2, iterations: 10, mix: {get: 3, put: 1}, every: {iterations: 200, request: del, fraction: 0.1}}
`), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := sc.Phases[0]
	idx := map[string]int{"del": 0, "get": 1, "put": 2}
	u := newVusers(p, 100, 0, idx)[0]
	counts := map[int]int{}
	for i := 0; i < 20*205; i++ {
		r, _ := u.next()
		counts[r]++
	}
	// 4000 mixed requests, then 5 deletes after each 200 (0.1 × 100 files / 2 workers).
	if counts[0] != 20*5 {
		t.Errorf("deletes = %d, want 100", counts[0])
	}
	if g, pt := counts[1], counts[2]; g < 2800 || g > 3200 || g+pt != 4000 {
		t.Errorf("mix 3:1 gave get %d put %d", g, pt)
	}
}

func TestMultipartBodyParses(t *testing.T) {
	sc, err := ParseScenario([]byte(`
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
	w := newWireReq(sc.Requests[0], "127.0.0.1:9", "")
	data, buf := w.bytes(&vctx{worker: 7, file: 2})
	defer release(buf)
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
	sc, err := ParseScenario([]byte(`
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
		data, _ := newWireReq(r, "127.0.0.1:9", "/api").bytes(&vctx{worker: 4, iter: 2})
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
