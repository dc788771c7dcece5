package detect

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// writeJar writes a zip at dir/name holding the given entries (name →
// content); a "META-INF/MANIFEST.MF" entry is the manifest.
func writeJar(t *testing.T, dir, name string, entries map[string][]byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for n, b := range entries {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func manifest(lines ...string) []byte {
	var b bytes.Buffer
	b.WriteString("Manifest-Version: 1.0\r\n")
	for _, l := range lines {
		b.WriteString(l + "\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// classFile is a class file's header and constant pool (what detection
// reads): classRefs become Class constants, literals String constants, and
// a Long sits between them to check that it takes two pool slots.
func classFile(classRefs []string, literals []string) []byte {
	var pool bytes.Buffer
	n := 1
	utf8 := func(s string) int {
		pool.WriteByte(1)
		binary.Write(&pool, binary.BigEndian, uint16(len(s)))
		pool.WriteString(s)
		n++
		return n - 1
	}
	for _, c := range classRefs {
		i := utf8(c)
		pool.WriteByte(7)
		binary.Write(&pool, binary.BigEndian, uint16(i))
		n++
	}
	pool.WriteByte(5) // Long: two slots
	binary.Write(&pool, binary.BigEndian, uint64(42))
	n += 2
	for _, s := range literals {
		i := utf8(s)
		pool.WriteByte(8)
		binary.Write(&pool, binary.BigEndian, uint16(i))
		n++
	}
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(0xCAFEBABE))
	binary.Write(&b, binary.BigEndian, uint16(0))
	binary.Write(&b, binary.BigEndian, uint16(61))
	binary.Write(&b, binary.BigEndian, uint16(n))
	b.Write(pool.Bytes())
	b.Write(make([]byte, 8)) // access flags, this, super, interfaces: not read
	return b.Bytes()
}
