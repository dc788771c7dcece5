package kube

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// How the agent's result travels back. The kubelet keeps at most 4096
// bytes of a container's termination message, which a trial's series and
// histograms outgrow; so the agent prints the whole result to its log on
// one marked line and puts in its termination message the result gzipped,
// trimmed of the series if need be, with a flag saying the log has all of
// it. The runner reads the message from the pod's status (no log access
// needed for a verdict) and the log only for a trimmed result.
const (
	// MaxMessage is the kubelet's limit on a termination message.
	MaxMessage = 4096
	// LogMarker starts the log line that holds the whole result as JSON.
	LogMarker = "jvmfit-result: "
	// TerminationPath is where the agent writes its message.
	TerminationPath = "/dev/termination-log"
)

// Message is the agent's termination message, decoded.
type Message struct {
	Result  *trial.Result `json:"result,omitempty"`
	Trimmed bool          `json:"trimmed,omitempty"` // the log line has the series, phases and histograms
	Error   string        `json:"error,omitempty"`   // the agent could not run the trial
}

// EncodeMessage fits m into MaxMessage bytes: whole if it fits, else
// trimmed of the series, phases, histograms and NMT, else with the result
// cut down to its verdict.
func EncodeMessage(m Message) (string, error) {
	s, err := encodeMessage(m)
	if err != nil || len(s) <= MaxMessage || m.Result == nil {
		return s, err
	}
	r := *m.Result
	r.Series, r.Phases, r.Histograms, r.NMT, r.OutputTail = nil, nil, nil, nil, ""
	if s, err = encodeMessage(Message{Result: &r, Trimmed: true}); err != nil || len(s) <= MaxMessage {
		return s, err
	}
	v := trial.Result{Spec: r.Spec, Key: r.Key, Verdict: r.Verdict, Kind: r.Kind, Failed: r.Failed, StartedAt: r.StartedAt, EndedAt: r.EndedAt,
		StartSeconds: r.StartSeconds, MemoryPeakBytes: r.MemoryPeakBytes, WorkingSetPeakBytes: r.WorkingSetPeakBytes}
	v.Spec.JVMOptions, v.Spec.Vars = nil, nil
	return encodeMessage(Message{Result: &v, Trimmed: true})
}

func encodeMessage(m Message) (string, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err := json.NewEncoder(zw).Encode(m); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// DecodeMessage reads a termination message.
func DecodeMessage(s string) (Message, error) {
	var m Message
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return m, fmt.Errorf("the agent's termination message is not jvmfit's (%.60q): %w", s, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return m, fmt.Errorf("the agent's termination message: %w", err)
	}
	if err := json.NewDecoder(zr).Decode(&m); err != nil {
		return m, fmt.Errorf("the agent's termination message: %w", err)
	}
	return m, nil
}

// WriteLogLine prints the whole result on one marked line.
func WriteLogLine(w io.Writer, r *trial.Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", LogMarker, b)
	return err
}

// ReadLogLine finds the last marked line in an agent's log.
func ReadLogLine(log io.Reader) (*trial.Result, error) {
	sc := bufio.NewScanner(log)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	var last []byte
	for sc.Scan() {
		if b, ok := bytes.CutPrefix(sc.Bytes(), []byte(LogMarker)); ok {
			last = append(last[:0], b...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if last == nil {
		return nil, errors.New("the agent's log has no result line")
	}
	var r trial.Result
	if err := json.Unmarshal(last, &r); err != nil {
		return nil, fmt.Errorf("the agent's result line: %w", err)
	}
	return &r, nil
}
