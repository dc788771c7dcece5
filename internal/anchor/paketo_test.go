package anchor

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// writeJar writes a jar with the given entries; an entry ending in .jar
// holds the entries listed for it in nested.
func writeJar(t *testing.T, path string, entries []string, nested map[string][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for _, e := range entries {
		w, err := z.Create(e)
		if err != nil {
			t.Fatal(err)
		}
		if inner, ok := nested[e]; ok {
			p := filepath.Join(t.TempDir(), "inner.jar")
			writeJar(t, p, inner, nil)
			b, _ := os.ReadFile(p)
			w.Write(b)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func emptyJar(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "empty.jar")
	writeJar(t, p, []string{"META-INF/MANIFEST.MF"}, nil)
	return p
}

// The figures libjvm's own tests publish for the calculator
// (helper/memory_calculator_test.go, calc/calculator_test.go): a 1G
// container, BPI_JVM_CLASS_COUNT=100 and an app with no classes.
func TestPaketoPublishedFigures(t *testing.T) {
	jar := emptyJar(t)
	cases := []struct {
		limit int64
		env   map[string]string
		user  []string
		want  string
	}{
		{size.GiB, nil, nil, "-XX:MaxDirectMemorySize=10M -Xmx522705K -XX:MaxMetaspaceSize=13870K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{size.GiB, map[string]string{"BPL_JVM_CLASS_ADJUSTMENT": "10"}, nil, "-XX:MaxDirectMemorySize=10M -Xmx522688K -XX:MaxMetaspaceSize=13887K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{size.GiB, map[string]string{"BPL_JVM_CLASS_ADJUSTMENT": "-40"}, nil, "-XX:MaxDirectMemorySize=10M -Xmx522785K -XX:MaxMetaspaceSize=13790K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{size.GiB, map[string]string{"BPL_JVM_CLASS_ADJUSTMENT": "110%"}, nil, "-XX:MaxDirectMemorySize=10M -Xmx522688K -XX:MaxMetaspaceSize=13887K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{size.GiB, map[string]string{"BPL_JVM_HEAD_ROOM": "10"}, nil, "-XX:MaxDirectMemorySize=10M -Xmx417848K -XX:MaxMetaspaceSize=13870K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{size.GiB, map[string]string{"BPL_JVM_LOADED_CLASS_COUNT": "100"}, nil, "-XX:MaxDirectMemorySize=10M -Xmx522337K -XX:MaxMetaspaceSize=14238K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{size.GiB, map[string]string{"BPL_JVM_THREAD_COUNT": "100"}, nil, "-XX:MaxDirectMemorySize=10M -Xmx676305K -XX:MaxMetaspaceSize=13870K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{10 * size.GiB, nil, nil, "-XX:MaxDirectMemorySize=10M -Xmx9959889K -XX:MaxMetaspaceSize=13870K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		{11 * size.GiB, nil, nil, "-XX:MaxDirectMemorySize=10M -Xmx11008465K -XX:MaxMetaspaceSize=13870K -XX:ReservedCodeCacheSize=240M -Xss1M"},
		// The user's options come first and the calculator adds the rest.
		{size.GiB, nil, []string{"-Dx=1"}, "-Dx=1 -XX:MaxDirectMemorySize=10M -Xmx522705K -XX:MaxMetaspaceSize=13870K -XX:ReservedCodeCacheSize=240M -Xss1M"},
	}
	for _, c := range cases {
		env := map[string]string{"BPI_JVM_CLASS_COUNT": "100"}
		for k, v := range c.env {
			env[k] = v
		}
		o, err := Paketo(Input{LimitBytes: c.limit, Jar: jar, Env: envOf(env), UserOptions: c.user})
		if err != nil || strings.Join(o.Args, " ") != c.want {
			t.Errorf("%s %v: %q, %v\n want %q", size.Format(c.limit), c.env, strings.Join(o.Args, " "), err, c.want)
		}
	}
}

// calc/calculator_test.go: 1G, 100 loaded classes, 2 threads gives a heap
// of 794,920,672 bytes and a metaspace of 14,580,000.
func TestPaketoCalculatorHeap(t *testing.T) {
	o, err := Paketo(Input{LimitBytes: size.GiB, Env: envOf(map[string]string{"BPL_JVM_LOADED_CLASS_COUNT": "100", "BPL_JVM_THREAD_COUNT": "2"})})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, r := range o.Regions {
		got[r.Name] = r.Bytes
	}
	if got["heap"] != 794_920_672 || got["metaspace"] != 14_580_000 {
		t.Fatalf("heap %d, metaspace %d; want 794920672 and 14580000", got["heap"], got["metaspace"])
	}
}

// Too small a limit is a refusal experiments recognise, naming the
// regions as the calculator's message does and the smallest limit it takes.
func TestPaketoRefusesNegativeHeap(t *testing.T) {
	in := Input{LimitBytes: 256 * size.MiB, Jar: emptyJar(t), Env: envOf(map[string]string{"BPI_JVM_CLASS_COUNT": "100"})}
	_, err := Paketo(in)
	var ref *plan.RefusedError
	if !errors.As(err, &ref) {
		t.Fatalf("256Mi: %v (%T); want *plan.RefusedError", err, err)
	}
	// 10M + 13870K + 240M + 250 × 1M = 514.1 MiB.
	if ref.MinBytes != 10*size.MiB+14_203_000+240*size.MiB+250*size.MiB+1 || !strings.Contains(err.Error(), "-Xss1M × 250 threads") {
		t.Fatalf("refusal %v (min %d)", err, ref.MinBytes)
	}
	in.LimitBytes = ref.MinBytes
	if _, err := Paketo(in); err != nil {
		t.Fatalf("at its own minimum: %v", err)
	}
	// Your -Xmx is kept, and a limit it does not fit is refused too.
	in.LimitBytes, in.UserOptions = 600*size.MiB, []string{"-Xmx200m"}
	if _, err := Paketo(in); !errors.As(err, &ref) {
		t.Fatalf("-Xmx200m in 600Mi: %v; want a refusal", err)
	}
	in.UserOptions = []string{"-Xmx64m"}
	o, err := Paketo(in)
	if err != nil || strings.Count(strings.Join(o.Args, " "), "-Xmx") != 1 || o.Args[0] != "-Xmx64m" {
		t.Fatalf("-Xmx64m: %q %v; want yours kept and no second -Xmx", o.Args, err)
	}
}

func TestPaketoNeedsAJar(t *testing.T) {
	_, err := Paketo(Input{LimitBytes: size.GiB, Env: envOf(map[string]string{"BPI_JVM_CLASS_COUNT": "100"})})
	if err == nil || !strings.Contains(err.Error(), "--jar") {
		t.Fatalf("no jar: %v", err)
	}
}

func TestJarClassesCountsNestedJars(t *testing.T) {
	p := filepath.Join(t.TempDir(), "app.jar")
	writeJar(t, p, []string{"META-INF/MANIFEST.MF", "a/A.class", "a/B.class", "s/x.groovy", "BOOT-INF/lib/dep.jar", "res.txt"},
		map[string][]string{"BOOT-INF/lib/dep.jar": {"d/D.class", "d/E.class", "d/F.kts", "d/readme"}})
	n, err := JarClasses(p)
	if err != nil || n != 6 {
		t.Fatalf("JarClasses = %d, %v; want 6 (3 + 3 nested)", n, err)
	}
}

func TestPaketoSize(t *testing.T) {
	for b, want := range map[int64]string{0: "0", 1023: "0", 10 << 20: "10M", 535_250_824: "522705K", 2 << 30: "2G", 1 << 40: "1T"} {
		if got := paketoSize(b); got != want {
			t.Errorf("paketoSize(%d) = %s, want %s", b, got, want)
		}
	}
}
