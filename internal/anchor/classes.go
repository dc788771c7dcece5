package anchor

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// classExtensions are what the Paketo calculator counts as a class
// (libjvm count/count_classes.go).
var classExtensions = []string{".class", ".classdata", ".clj", ".groovy", ".kts"}

func isClass(name string) bool {
	for _, e := range classExtensions {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// JarClasses counts a jar's classes as the Paketo calculator counts the
// application: every class entry, plus the class entries of each jar
// nested one level inside (a Spring Boot jar's BOOT-INF/lib).
func JarClasses(path string) (int, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		if errors.Is(err, zip.ErrFormat) {
			return 0, nil // the calculator skips what is not a zip
		}
		return 0, fmt.Errorf("counting classes in %s: %w", path, err)
	}
	defer z.Close()
	count := 0
	for _, f := range z.File {
		if strings.HasSuffix(f.FileInfo().Name(), ".jar") {
			n, err := nestedClasses(f)
			if err != nil {
				return 0, fmt.Errorf("counting classes in %s!%s: %w", path, f.Name, err)
			}
			count += n
		}
		if isClass(f.Name) {
			count++
		}
	}
	return count, nil
}

func nestedClasses(f *zip.File) (int, error) {
	r, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, r); err != nil {
		return 0, err
	}
	z, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		if errors.Is(err, zip.ErrFormat) {
			return 0, nil
		}
		return 0, err
	}
	count := 0
	for _, e := range z.File {
		if isClass(e.Name) {
			count++
		}
	}
	return count, nil
}
