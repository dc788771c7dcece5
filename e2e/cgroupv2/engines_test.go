package cgroupv2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// The container engines the guest runs (docs/cgroupv2-engines.md): Debian's
// own binaries, copied with the libraries they load as the JDK is. The
// guest has no network, so the daemon runs without a bridge or iptables and
// the containers on the host's network (jvmfit's default); its storage is
// vfs on the scratch disk (no overlay module in the guest).
// Each engine's files are packed only when one of its layouts runs: they
// are most of the image's size, and the guest's kernel copies the whole
// initramfs into memory under emulation before init starts.
type engineBin struct{ path, what string }

var engineBins = map[string][]engineBin{
	"docker": {
		{"/usr/sbin/dockerd", "dockerd (Debian package docker.io)"},
		{"/usr/bin/docker", "the docker client (Debian package docker.io)"},
		{"/usr/bin/containerd", "containerd (Debian package containerd)"},
		{"/usr/bin/containerd-shim-runc-v2", "containerd's runc shim (Debian package containerd)"},
		{"/usr/sbin/runc", "runc (Debian package runc)"},
	},
	"podman": {
		{"/usr/bin/podman", "podman (Debian package podman)"},
		{"/usr/bin/conmon", "conmon (Debian package conmon)"},
		{"/usr/sbin/runc", "runc (Debian package runc)"},
		{"/etc/containers/policy.json", "podman's image policy (Debian package golang-github-containers-common)"},
	},
}

// The engine layouts, each a daemon (or podman) started in a service's
// group and jvmfit from a session's (testdata/guest/layout.sh).
var engineLayouts = map[string]bool{"docker": true, "podman": true}

// guestMemMiB is the guest's memory: more with an engine, whose binaries
// sit in the initramfs and whose image is unpacked on the scratch RAM disk.
func guestMemMiB(layouts []string) int {
	for _, l := range layouts {
		if engineLayouts[l] {
			return 4096
		}
	}
	return 2048
}

// needEngineTools fails the test, naming the package, for each file the
// host lacks of an engine among layouts.
func needEngineTools(t *testing.T, layouts []string) {
	t.Helper()
	for _, l := range layouts {
		for _, b := range engineBins[l] {
			prereq.File(t, b.what, b.path, prereq.Installer)
		}
	}
}

// packEngines adds the files of the engines among layouts and their
// configuration to the image, and returns the ELF files among them, whose
// libraries go in with the other binaries'.
func packEngines(im *image, layouts []string) ([]string, error) {
	var elfs []string
	for _, l := range layouts {
		for _, b := range engineBins[l] {
			if err := im.hostFile(b.path, b.path); err != nil {
				return nil, err
			}
			if !strings.HasPrefix(b.path, "/etc/") {
				elfs = append(elfs, b.path)
			}
		}
	}
	// podman: no systemd, no network, storage on the scratch disk; the
	// limits and logs as .ci/install gives the host's podman.
	im.data("/etc/containers/containers.conf", 0o644, []byte(`[containers]
log_driver = "k8s-file"
default_ulimits = ["nofile=65536:65536", "nproc=32768:32768"]

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"
# The guest's root is its initramfs, which pivot_root cannot leave.
no_pivot_root = true
`))
	im.data("/etc/containers/storage.conf", 0o644, []byte(`[storage]
driver = "vfs"
runroot = "/run/containers/storage"
graphroot = "/scratch/containers/storage"
`))
	im.data("/etc/containers/registries.conf", 0o644, []byte("unqualified-search-registries = []\n"))
	// Docker bind-mounts the host's resolv.conf into host-network containers.
	im.data("/etc/resolv.conf", 0o644, []byte("# no network in the guest\n"))
	im.entries["/var/run"] = imageEntry{link: "/run"}
	im.dir("/var")
	im.dir("/var/lib")
	return elfs, nil
}

// engineFiles are the descriptors and scripts of the engine and stall
// steps, from testdata, at their guest paths.
func engineFiles(im *image) error {
	for _, f := range []string{"image.yaml", "hog.yaml", "hog-scenario.yaml"} {
		if _, err := os.Stat(filepath.Join("testdata", f)); err != nil {
			return err
		}
		if err := im.hostFile("/app/"+f, filepath.Join("testdata", f)); err != nil {
			return err
		}
	}
	for _, f := range []string{"engines.sh", "hog.sh"} {
		b, err := os.ReadFile(filepath.Join("testdata", "guest", f))
		if err != nil {
			return err
		}
		im.data("/guest/"+f, 0o755, b)
	}
	return nil
}
