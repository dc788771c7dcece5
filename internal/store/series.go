package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// A series is stored as a table: the JSON keys of probe.Sample once, then
// one row of values per sample. That is a third of the size of plain JSON
// objects, and it survives fields being added to probe.Sample: old rows
// lack the column and read as zero; columns this build does not know are
// skipped.
type compactSeries struct {
	Columns []string            `json:"columns"`
	Rows    [][]json.RawMessage `json:"rows"`
}

// sampleField is one JSON-visible field of probe.Sample.
type sampleField struct {
	name  string
	index int
	isInt bool // integer kinds (sizes, counts, durations) take the fast path
}

var sampleFields = func() []sampleField {
	t := reflect.TypeOf(probe.Sample{})
	var out []sampleField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			out = append(out, sampleField{name, i, true})
		default:
			out = append(out, sampleField{name, i, false})
		}
	}
	return out
}()

func encodeSeries(samples []probe.Sample) (string, error) {
	var b bytes.Buffer
	b.WriteString(`{"columns":[`)
	for i, f := range sampleFields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.name))
	}
	b.WriteString(`],"rows":[`)
	var num []byte
	for i := range samples {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		v := reflect.ValueOf(&samples[i]).Elem()
		for j, f := range sampleFields {
			if j > 0 {
				b.WriteByte(',')
			}
			fv := v.Field(f.index)
			if f.isInt {
				num = strconv.AppendInt(num[:0], fv.Int(), 10)
				b.Write(num)
				continue
			}
			raw, err := json.Marshal(fv.Interface())
			if err != nil {
				return "", err
			}
			b.Write(raw)
		}
		b.WriteByte(']')
	}
	b.WriteString("]}")
	return b.String(), nil
}

func decodeSeries(data string) ([]probe.Sample, error) {
	var c compactSeries
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	byName := map[string]sampleField{}
	for _, f := range sampleFields {
		byName[f.name] = f
	}
	cols := make([]*sampleField, len(c.Columns))
	for i, name := range c.Columns {
		if f, ok := byName[name]; ok {
			cols[i] = &f
		}
	}
	out := make([]probe.Sample, len(c.Rows))
	for i, row := range c.Rows {
		if len(row) != len(cols) {
			return nil, fmt.Errorf("series: row %d has %d values for %d columns", i, len(row), len(cols))
		}
		v := reflect.ValueOf(&out[i]).Elem()
		for j, f := range cols {
			raw := row[j]
			if f == nil || string(raw) == "null" {
				continue
			}
			fv := v.Field(f.index)
			if f.isInt {
				n, err := strconv.ParseInt(string(raw), 10, 64)
				if err != nil {
					return nil, fmt.Errorf("series: row %d, %s: %w", i, f.name, err)
				}
				fv.SetInt(n)
				continue
			}
			if err := json.Unmarshal(raw, fv.Addr().Interface()); err != nil {
				return nil, fmt.Errorf("series: row %d, %s: %w", i, f.name, err)
			}
		}
	}
	return out, nil
}
