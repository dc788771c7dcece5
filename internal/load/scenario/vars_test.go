package scenario

import (
	"maps"
	"strings"
	"testing"
)

func TestParseVars(t *testing.T) {
	got, err := ParseVars([]string{"a=1", " b =x=y", "c="})
	if err != nil || !maps.Equal(got, map[string]string{"a": "1", "b": "x=y", "c": ""}) {
		t.Errorf("ParseVars: %v, %v", got, err)
	}
	if got, err := ParseVars(nil); got != nil || err != nil {
		t.Errorf("no --var: %v, %v; want nil", got, err)
	}
	for _, bad := range []string{"a", "=1", " =1"} {
		if _, err := ParseVars([]string{bad}); err == nil || !strings.Contains(err.Error(), "write name=value") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
