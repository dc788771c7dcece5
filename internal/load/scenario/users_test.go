package scenario

import (
	"fmt"
	"strings"
	"testing"
)

func TestSequenceUnitsWrapAndSpread(t *testing.T) {
	p := &Phase{Workers: 3, Steps: []string{"a", "a", "b"}, FileOffset: "spread"}
	us := NewUsers(p, 7, 80, map[string]int{"a": 0, "b": 1})
	var got []string
	for i := 0; i < 8; i++ {
		r, c := us[2].Next()
		got = append(got, fmt.Sprintf("%d:f%d:v%d", r, c.File, c.Version))
	}
	// worker 2 of 3 with 7 files starts at 4 and wraps after 6.
	want := "0:f4:v1 0:f5:v1 1:f6:v1 0:f0:v1 0:f1:v1 1:f2:v1 0:f3:v1 0:f4:v2"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	p.FileOffset = "zero"
	if _, c := NewUsers(p, 7, 80, map[string]int{"a": 0, "b": 1})[2].Next(); c.File != 0 {
		t.Errorf("file_offset zero: first file %d", c.File)
	}
}

func TestMixAndEvery(t *testing.T) {
	sc, err := Parse([]byte(`
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
	u := NewUsers(p, 100, 0, idx)[0]
	counts := map[int]int{}
	for i := 0; i < 20*205; i++ {
		r, _ := u.Next()
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
