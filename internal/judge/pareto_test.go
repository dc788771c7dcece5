package judge

import (
	"reflect"
	"testing"
	"time"
)

const mib = 1 << 20

func pt(mem int64, p99ms int, start, thr float64) ParetoPoint {
	return ParetoPoint{MemoryBytes: mem * mib, P99: time.Duration(p99ms) * time.Millisecond, StartSeconds: start, Throttling: thr, OK: true}
}

func koPt(p ParetoPoint) ParetoPoint { p.OK = false; return p }

func TestParetoDominates(t *testing.T) {
	cases := []struct {
		name string
		a, b ParetoPoint
		want bool
	}{
		{"better on all", pt(96, 5, 2, 0), pt(128, 9, 3, 0.1), true},
		{"better on memory only", pt(96, 5, 2, 0), pt(104, 5, 2, 0), true},
		{"better on throttling only", pt(96, 5, 2, 0), pt(96, 5, 2, 0.01), true},
		{"equal", pt(96, 5, 2, 0), pt(96, 5, 2, 0), false},
		{"trade-off", pt(96, 9, 2, 0), pt(128, 5, 2, 0), false},
		{"worse on start", pt(96, 5, 3, 0), pt(128, 9, 2, 0), false},
		{"worse on all", pt(128, 9, 3, 0.1), pt(96, 5, 2, 0), false},
	}
	for _, c := range cases {
		if got := Dominates(c.a, c.b); got != c.want {
			t.Errorf("%s: Dominates = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParetoFront(t *testing.T) {
	cases := []struct {
		name string
		ps   []ParetoPoint
		want []int
	}{
		{"empty", nil, nil},
		{"only KO", []ParetoPoint{koPt(pt(96, 5, 2, 0))}, nil},
		{"one OK", []ParetoPoint{pt(96, 5, 2, 0)}, []int{0}},
		{"dominated dropped", []ParetoPoint{pt(128, 9, 3, 0), pt(96, 5, 2, 0)}, []int{1}},
		{"trade-off kept, sorted by memory",
			[]ParetoPoint{pt(160, 3, 1.5, 0), pt(96, 9, 2.5, 0), pt(128, 5, 2, 0)}, []int{1, 2, 0}},
		{"ties all kept in input order",
			[]ParetoPoint{pt(96, 5, 2, 0), pt(96, 5, 2, 0), pt(104, 6, 2, 0)}, []int{0, 1}},
		{"KO dominates nothing",
			[]ParetoPoint{koPt(pt(64, 1, 1, 0)), pt(96, 5, 2, 0)}, []int{1}},
		{"KO never on front even when best",
			[]ParetoPoint{pt(96, 5, 2, 0), koPt(pt(64, 1, 1, 0)), pt(128, 9, 3, 0.2)}, []int{0}},
		{"throttling alone keeps a point",
			[]ParetoPoint{pt(96, 5, 2, 0.3), pt(128, 5, 2, 0)}, []int{0, 1}},
		{"same memory sorted by p99",
			[]ParetoPoint{pt(96, 7, 1, 0), pt(96, 5, 2, 0)}, []int{1, 0}},
	}
	for _, c := range cases {
		if got := Front(c.ps); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Front = %v, want %v", c.name, got, c.want)
		}
	}
}
