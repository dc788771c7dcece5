package judge

import "testing"

const (
	mb = int64(1) << 20
	ok = true  // a run that passed
	ko = false // a run that failed
)

func TestPasses(t *testing.T) {
	cases := []struct {
		runs []bool
		want bool
	}{
		{nil, false},
		{[]bool{ok}, true},
		{[]bool{ko}, false},
		{[]bool{ok, ko}, false}, // a tie is KO
		{[]bool{ok, ko, ok}, true},
		{[]bool{ko, ok, ko}, false},
	}
	for _, c := range cases {
		if got := Passes(c.runs); got != c.want {
			t.Errorf("Passes(%v) = %v, want %v", c.runs, got, c.want)
		}
	}
}

// The boundary is the lowest passing limit with no failing limit above:
// a lucky pass below a failure is never the answer.
func TestBoundary(t *testing.T) {
	cases := []struct {
		name         string
		runs         map[int64][]bool
		minOK, maxKO int64
	}{
		{"empty", nil, 0, 0},
		{"monotone", map[int64][]bool{64: {ko}, 128: {ok}, 96: {ko}, 112: {ok}}, 112, 96},
		{"all pass", map[int64][]bool{64: {ok}, 128: {ok}}, 64, 0},
		{"all fail", map[int64][]bool{64: {ko}, 128: {ko}}, 0, 128},
		{"luck below a failure, a tie, a majority", map[int64][]bool{
			96: {ok}, 112: {ko}, 128: {ok, ko}, 144: {ok, ok, ko}, 160: {ok}}, 144, 128},
	}
	for _, c := range cases {
		runs := map[int64][]bool{}
		for m, vs := range c.runs {
			runs[m*mb] = vs
		}
		gotOK, gotKO := Boundary(runs)
		if gotOK != c.minOK*mb || gotKO != c.maxKO*mb {
			t.Errorf("%s: Boundary = %d, %d MiB; want %d, %d", c.name, gotOK/mb, gotKO/mb, c.minOK, c.maxKO)
		}
	}
}
