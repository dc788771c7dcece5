package cgroupv2

import (
	"strconv"
	"strings"
	"time"
)

// guestRun is what the guest said on its serial console, read from the
// markers its scripts print (testdata/guest): the boot, each layout, each
// step of a layout with its output, exit status and time, and the jvmfit*
// cgroups left after each layout.
type guestRun struct {
	Booted  time.Duration // the guest's uptime when init started
	Kernel  string
	Info    []string
	Steps   []*guestStep
	Layouts map[string]time.Duration // wall time inside the guest, per ended layout
	Left    map[string]string        // "none", or the jvmfit* directories left
	Output  map[string][]string      // each layout's console lines, markers included
	Done    bool                     // init reached its end
	Lines   []string                 // every console line, for failure messages
	cur     *guestStep
	inOut   bool
	layout  string // the layout running, "" between layouts
}

// guestStep is one step of one layout.
type guestStep struct {
	Layout, Name string
	Log          []string // stderr, as it came
	Stdout       []string
	RC           int
	Took         time.Duration
	Ended        bool
}

func newGuestRun() *guestRun {
	return &guestRun{Layouts: map[string]time.Duration{}, Left: map[string]string{}, Output: map[string][]string{}}
}

// line takes one console line (CR already removed).
func (g *guestRun) line(l string) {
	g.Lines = append(g.Lines, l)
	if g.layout != "" {
		g.Output[g.layout] = append(g.Output[g.layout], l)
	}
	if !strings.HasPrefix(l, "@@") {
		if g.cur != nil {
			if g.inOut {
				g.cur.Stdout = append(g.cur.Stdout, l)
			} else {
				g.cur.Log = append(g.cur.Log, l)
			}
		}
		return
	}
	f := strings.Fields(l)
	switch {
	case f[0] == "@@BOOTED" && len(f) >= 3:
		g.Booted = seconds(f[1])
		g.Kernel = f[2]
	case f[0] == "@@INFO":
		g.Info = append(g.Info, strings.TrimPrefix(l, "@@INFO "))
	case f[0] == "@@BEGIN" && len(f) == 3:
		g.cur = &guestStep{Layout: f[1], Name: f[2], RC: -1}
		g.inOut = false
		g.Steps = append(g.Steps, g.cur)
	case f[0] == "@@STDOUT" && g.cur != nil:
		g.inOut = true
	case f[0] == "@@END" && len(f) == 5 && g.cur != nil:
		g.cur.RC, _ = strconv.Atoi(f[3])
		g.cur.Took = millis(f[4])
		g.cur.Ended = true
		g.cur, g.inOut = nil, false
	case f[0] == "@@LAYOUT" && len(f) == 3 && f[2] == "BEGIN":
		g.layout = f[1]
		g.Output[f[1]] = []string{l}
	case f[0] == "@@LAYOUT" && len(f) == 4 && f[2] == "END":
		g.Layouts[f[1]] = millis(f[3])
		g.layout = ""
	case f[0] == "@@LEFT" && len(f) >= 3:
		g.Left[f[1]] = strings.Join(f[2:], " ")
	case f[0] == "@@DONE":
		g.Done = true
	}
}

// step finds a layout's step, or nil if the guest never began it.
func (g *guestRun) step(layout, name string) *guestStep {
	for _, s := range g.Steps {
		if s.Layout == layout && s.Name == name {
			return s
		}
	}
	return nil
}

func seconds(s string) time.Duration {
	v, _ := strconv.ParseFloat(s, 64)
	return time.Duration(v * float64(time.Second))
}

func millis(s string) time.Duration {
	v, _ := strconv.ParseInt(s, 10, 64)
	return time.Duration(v) * time.Millisecond
}
