package trial

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestOutputKeepsTailHidesFlagsReadsHeapMax(t *testing.T) {
	var log bytes.Buffer
	o := newOutput(&log)
	out, errs := o.stream(), o.stream()
	fmt.Fprint(out, "[Global flags]\n")
	fmt.Fprint(out, "      int ActiveProcessorCount                     = -1                                        {product} {default}\n")
	fmt.Fprint(out, "   size_t MaxHeapSize                              = 134217728                                 {product} {ergonomic}\n")
	fmt.Fprint(out, "    ccstr AbortVMOnException                       =                                           {diagnostic} {default}\n")
	// A line split across writes, interleaved with the other stream.
	fmt.Fprint(out, "app: start")
	fmt.Fprint(errs, "warn: one\n")
	fmt.Fprint(out, "ed\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(out, "line %d\n", i)
	}
	if o.HeapMax() != 128<<20 {
		t.Errorf("heap max %d", o.HeapMax())
	}
	if strings.Contains(log.String(), "{product}") || strings.Contains(log.String(), "Global flags") {
		t.Error("flags block reached the log")
	}
	if !strings.Contains(log.String(), "warn: one\napp: started\nline 1\n") {
		t.Errorf("log:\n%s", log.String())
	}
	tail := strings.Split(o.Tail(), "\n")
	if len(tail) != tailLines || tail[0] != "line 11" || tail[tailLines-1] != "line 40" {
		t.Errorf("tail %q", tail)
	}
}

func TestOutputTailShort(t *testing.T) {
	o := newOutput(nil)
	fmt.Fprint(o.stream(), "only\r\nlines\n")
	if o.Tail() != "only\nlines" || o.HeapMax() != 0 {
		t.Errorf("tail %q", o.Tail())
	}
}
