package detect

import (
	"encoding/binary"
	"io"
	"strings"
)

// javaVersion is the Java feature version the app's own main class needs,
// read from its class file's major version (JVMS §4.1: 61 is Java 17, 65
// Java 21); 0 when the class is not in the jar (Quarkus's app jar sits in
// quarkus-app/app/, a thin jar's main may be in a dependency).
func (j *jar) javaVersion() int {
	cls := j.manifest["start-class"] // Spring Boot's own main, behind its launcher
	prefix := "BOOT-INF/classes/"
	if cls == "" {
		cls, prefix = j.mainClass, ""
	}
	if cls == "" {
		return 0
	}
	f, err := j.files.Open(prefix + strings.ReplaceAll(cls, ".", "/") + ".class")
	if err != nil {
		return 0
	}
	defer f.Close()
	var head [8]byte
	if _, err := io.ReadFull(f, head[:]); err != nil || binary.BigEndian.Uint32(head[:]) != 0xCAFEBABE {
		return 0
	}
	major := int(binary.BigEndian.Uint16(head[6:]))
	if major < 45 {
		return 0
	}
	if major <= 48 { // 1.1 to 1.4 all need "Java 1"; say 8 at least, the oldest a JVM here runs
		return 8
	}
	return max(major-44, 8)
}
