package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// compactSeries is a series stored as a table: the JSON keys of
// probe.Sample once, then one row of values per sample. That halves the
// size of a 250 ms series over plain JSON objects, and it survives fields
// being added to probe.Sample (old rows lack the column, new code reads 0).
type compactSeries struct {
	Columns []string            `json:"columns"`
	Rows    [][]json.RawMessage `json:"rows"`
}

func encodeSeries(samples []probe.Sample) (string, error) {
	objs := make([]map[string]json.RawMessage, len(samples))
	seen := map[string]bool{}
	for i, s := range samples {
		b, err := json.Marshal(s)
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(b, &objs[i]); err != nil {
			return "", err
		}
		for k := range objs[i] {
			seen[k] = true
		}
	}
	c := compactSeries{Columns: make([]string, 0, len(seen)), Rows: make([][]json.RawMessage, len(samples))}
	for k := range seen {
		c.Columns = append(c.Columns, k)
	}
	sort.Strings(c.Columns)
	for i, o := range objs {
		row := make([]json.RawMessage, len(c.Columns))
		for j, k := range c.Columns {
			if v, ok := o[k]; ok {
				row[j] = v
			} else {
				row[j] = json.RawMessage("null")
			}
		}
		c.Rows[i] = row
	}
	b, err := json.Marshal(c)
	return string(b), err
}

func decodeSeries(data string) ([]probe.Sample, error) {
	var c compactSeries
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	out := make([]probe.Sample, len(c.Rows))
	var buf bytes.Buffer
	for i, row := range c.Rows {
		if len(row) != len(c.Columns) {
			return nil, fmt.Errorf("series: row %d has %d values for %d columns", i, len(row), len(c.Columns))
		}
		buf.Reset()
		buf.WriteByte('{')
		for j, k := range c.Columns {
			if j > 0 {
				buf.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			buf.Write(kb)
			buf.WriteByte(':')
			buf.Write(row[j])
		}
		buf.WriteByte('}')
		if err := json.Unmarshal(buf.Bytes(), &out[i]); err != nil {
			return nil, fmt.Errorf("series: row %d: %w", i, err)
		}
	}
	return out, nil
}
