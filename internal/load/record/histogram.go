package record

import (
	"fmt"
	"io"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// HistogramEncoding names the encoding of EncodeHistogram: HdrHistogram's
// V2 compressed form in base64, which every HdrHistogram implementation
// (Java, C, Go, Python) can decode and merge.
const HistogramEncoding = "hdr-v2-base64"

// EncodeHistogram encodes h (microseconds) for storage.
func EncodeHistogram(h *hdr.Histogram) (string, error) {
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	return string(b), err
}

// DecodeHistogram reverses EncodeHistogram.
func DecodeHistogram(s string) (*hdr.Histogram, error) {
	h, err := hdr.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("bad %s histogram: %s", HistogramEncoding, strings.Join(strings.Fields(err.Error()), " "))
	}
	return h, nil
}

// WritePercentiles writes h as the standard HdrHistogram percentile
// distribution text (as HdrHistogram's Java tools and wrk2 print it), with
// values in milliseconds. The file can be plotted with HdrHistogram's
// online plotter.
func WritePercentiles(w io.Writer, h *hdr.Histogram) error {
	_, err := h.PercentilesPrint(w, 5, 1000)
	return err
}

// HistogramJSON is a histogram for JSON output: the distribution in
// readable points, plus the encoded histogram for exact merging.
type HistogramJSON struct {
	Unit        string            `json:"unit"` // "us"
	Count       int64             `json:"count"`
	Min         int64             `json:"min"`
	Max         int64             `json:"max"`
	Mean        float64           `json:"mean"`
	StdDev      float64           `json:"stddev"`
	Percentiles []PercentilePoint `json:"percentiles"`
	Encoding    string            `json:"encoding"`
	Data        string            `json:"data"`
}

// PercentilePoint is one step of the distribution.
type PercentilePoint struct {
	Percentile float64 `json:"percentile"` // 0..100
	Value      int64   `json:"value"`      // microseconds
	Count      int64   `json:"count"`      // requests at or below Value
}

// ToJSON describes h (microseconds).
func ToJSON(h *hdr.Histogram) (*HistogramJSON, error) {
	data, err := EncodeHistogram(h)
	if err != nil {
		return nil, err
	}
	j := &HistogramJSON{Unit: "us", Count: h.TotalCount(), Encoding: HistogramEncoding, Data: data,
		Percentiles: []PercentilePoint{}}
	if j.Count == 0 {
		return j, nil
	}
	j.Min, j.Max, j.Mean, j.StdDev = h.Min(), h.Max(), h.Mean(), h.StdDev()
	for _, b := range h.CumulativeDistributionWithTicks(5) {
		j.Percentiles = append(j.Percentiles, PercentilePoint{Percentile: b.Quantile, Value: b.ValueAt, Count: b.Count})
	}
	return j, nil
}
