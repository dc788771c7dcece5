package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// WriteProfile writes a profile into dir under a name made of its digest,
// so that the same profile is the same file (and a soak's key the same)
// when a tune resumes. The digest leaves out the stored trial's id, which
// a resumed tune's copy of the profile trial changes, and a file already
// there is kept as it is, so its bytes (the soak key's digest) stay too.
func WriteProfile(dir string, p *plan.Profile) (string, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "", err
	}
	b = append(b, '\n')
	bare := *p
	bare.Trial = 0
	nb, _ := json.Marshal(bare)
	sum := sha256.Sum256(nb)
	path := filepath.Join(dir, "profile-"+hex.EncodeToString(sum[:6])+".json")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot make the profile's directory: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "", fmt.Errorf("cannot write the profile: %w", err)
	}
	return path, nil
}
