//go:build linux

package service

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

// pgRoot is where the Debian postgresql-NN packages put their server
// binaries; a variable so tests can point elsewhere.
var pgRoot = "/usr/lib/postgresql"

// postgresBin finds the newest installed major version's bin directory:
// Debian keeps the server binaries (initdb, postgres) off PATH.
func postgresBin() (string, error) {
	ents, err := os.ReadDir(pgRoot)
	if err != nil {
		return "", fmt.Errorf("no PostgreSQL server found in %s: install the Debian package postgresql (apt-get install postgresql)", pgRoot)
	}
	var vers []int
	for _, e := range ents {
		if v, err := strconv.Atoi(e.Name()); err == nil {
			if _, err := os.Stat(filepath.Join(pgRoot, e.Name(), "bin", "postgres")); err == nil {
				vers = append(vers, v)
			}
		}
	}
	if len(vers) == 0 {
		return "", fmt.Errorf("no PostgreSQL server binaries under %s/<version>/bin: install the Debian package postgresql", pgRoot)
	}
	sort.Ints(vers)
	return filepath.Join(pgRoot, strconv.Itoa(vers[len(vers)-1]), "bin"), nil
}
