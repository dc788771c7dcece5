package report

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const dash = "—"

// shortResult is trial.Result.Cell without the figures, for narrow columns.
func shortResult(r *trial.Result) string {
	if r.Verdict == trial.OK || r.Kind == "" {
		return string(r.Verdict)
	}
	return string(r.Verdict) + " " + string(r.Kind)
}

func throughput(r *trial.Result) float64 {
	if r.Load == nil {
		return 0
	}
	return r.Load.Throughput
}

// rate is the measured rate asked for: the spec's, or the scenario's own.
func rate(r *trial.Result) float64 {
	if r.Spec.Rate > 0 {
		return r.Spec.Rate
	}
	if r.Load != nil {
		return r.Load.TargetRate
	}
	return 0
}

func success(r *trial.Result) float64 {
	if r.Load == nil {
		return 0
	}
	return r.Load.Success
}

func oneDecimal(v float64) string   { return strconv.FormatFloat(v, 'f', 1, 64) }
func zeroDecimals(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// num prints a rate or count without trailing zeros: 100, 2.5.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func cpus(v float64) string {
	if v == 0 {
		return "host"
	}
	return num(v)
}

func mem(b int64) string {
	if b <= 0 {
		return dash
	}
	return size.Format(b)
}

// mib prints bytes as MiB with one decimal, the unit of seed 001's tables.
func mib(b int64) string {
	if b <= 0 {
		return dash
	}
	return oneDecimal(float64(b) / float64(size.MiB))
}

// ms prints a latency in milliseconds with a precision that suits it.
func ms(d time.Duration) string {
	if d <= 0 {
		return dash
	}
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 1000:
		return strconv.FormatFloat(v/1000, 'f', 2, 64) + "s"
	case v >= 100:
		return zeroDecimals(v) + "ms"
	case v >= 1:
		return oneDecimal(v) + "ms"
	}
	return strconv.FormatFloat(v, 'f', 3, 64) + "ms"
}

func seconds(d time.Duration) string {
	if d <= 0 {
		return dash
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64)
}

func percent(ratio float64) string {
	if math.IsNaN(ratio) || math.IsInf(ratio, 0) {
		return dash
	}
	return strconv.FormatFloat(ratio*100, 'f', 1, 64) + "%"
}

// successCell keeps nines visible: 0.9995 is "99.95%", not "100.0%".
func successCell(r *trial.Result) string {
	if r.Load == nil || r.Load.Requests == 0 {
		return dash
	}
	v := r.Load.Success * 100
	if v == 100 || v < 99 {
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "%"
}

// jvmLabel names an option mode exactly as the user wrote it for --jvm
// ("set:B", not "B"), so a table's column and the search's table and the
// recommendation all say the same thing.
func jvmLabel(mode string) string {
	if mode == "" {
		return "default"
	}
	return mode
}

func appLabel(r *trial.Result) string {
	if r.Spec.AppName != "" {
		return r.Spec.AppName
	}
	return r.Spec.App
}

func jdkLabel(v int) string {
	if v == 0 {
		return "JDK ?"
	}
	return "JDK " + strconv.Itoa(v)
}

// startCell is the start time, or a dash when the app never answered.
func startCell(r *trial.Result) string {
	if r.StartSeconds <= 0 {
		return dash
	}
	return oneDecimal(r.StartSeconds) + "s"
}

// reasons are the failed clauses, minus a bare repeat of the KO kind.
func reasons(r *trial.Result) []string {
	var out []string
	for _, f := range r.Failed {
		if f != string(r.Kind) && strings.TrimSpace(f) != "" {
			out = append(out, f)
		}
	}
	return out
}
