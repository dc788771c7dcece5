package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// pids_limit is a positive whole number, and a descriptor without it
// encodes as before the field existed, so its trials keep their keys.
func TestPidsLimitField(t *testing.T) {
	const base = "jar: x.jar\nready: http://127.0.0.1:${port}/\n"
	a, err := Load(write(t, t.TempDir(), "app.yaml", base+"pids_limit: 300\n"))
	if err != nil || a.PidsLimit != 300 {
		t.Fatalf("pids_limit: 300 gave %v, %v", a, err)
	}
	for _, v := range []string{"0", "-5", "1.5", "many", "NaN"} {
		_, err := Load(write(t, t.TempDir(), "app.yaml", base+"pids_limit: "+v+"\n"))
		if err == nil || !strings.Contains(err.Error(), "pids_limit: ") {
			t.Errorf("pids_limit: %s: %v, want an error naming the field", v, err)
		}
	}
	a, err = Load(write(t, t.TempDir(), "app.yaml", base))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(a)
	if strings.Contains(string(b), `"PidsLimit"`) {
		t.Errorf("a descriptor without pids_limit encodes it: %s", b)
	}
}
