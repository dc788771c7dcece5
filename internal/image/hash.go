package image

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
)

// builderVersion changes when the way images are made changes, so that
// images built the old way are rebuilt.
const builderVersion = "jvmfit-image-1"

// hashInputs hashes the manifest of the given files and trees (each
// entry's path, mode, size and modification time) and the extra strings.
// Hashing the manifest, not the 250 MB of a JDK's bytes, keeps the check
// that skips a build to a few milliseconds; a package upgrade changes the
// sizes and times it records.
func hashInputs(paths []string, extra ...string) (string, error) {
	h := sha256.New()
	io.WriteString(h, builderVersion+"\n")
	for _, e := range extra {
		fmt.Fprintf(h, "%s\n", e)
	}
	for _, root := range paths {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			st, err := d.Info()
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %o %d %d\n", p, st.Mode(), st.Size(), st.ModTime().UnixNano())
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("cannot read %s: %w", root, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}
