package size

import "testing"

func TestParse(t *testing.T) {
	good := map[string]int64{
		"256Mi": 256 * MiB, "300M": 300 * MiB, "1G": GiB, "1.5GiB": GiB + GiB/2,
		"4096": 4096, "512k": 512 * KiB, "2Ti": 2 * TiB, " 64MB ": 64 * MiB, "0": 0,
	}
	for in, want := range good {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "12XB", "-1G", "M", "1.2.3M", "abc", "1e400", "NaN"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted bad input", in)
		}
	}
}

func TestFormat(t *testing.T) {
	cases := map[int64]string{256 * MiB: "256Mi", GiB + GiB/2: "1.5Gi", 100: "100", 2 * KiB: "2Ki"}
	for in, want := range cases {
		if got := Format(in); got != want {
			t.Errorf("Format(%d) = %q, want %q", in, got, want)
		}
	}
	jvm := map[int64]string{256 * MiB: "256m", 2 * GiB: "2g", 1536 * KiB: "1536k", 1000: "1000"}
	for in, want := range jvm {
		if got := JVM(in); got != want {
			t.Errorf("JVM(%d) = %q, want %q", in, got, want)
		}
	}
}
