//go:build linux

package load

import (
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
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
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) {
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
	sc, err := scenario.Load("scenario/testdata/seed001.yaml", nil)
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
