package docker

import "testing"

func TestHostPath(t *testing.T) {
	for _, c := range []struct{ dir, p, want string }{
		{"/c/id", "/usr/lib/jvm/x", "/c/id/usr/lib/jvm/x"},
		{"/c/id/", "/opt/java/../java/openjdk/", "/c/id/opt/java/openjdk"},
		{"/c/id", "/../../etc", "/c/id/etc"}, // an absolute path cleans to below /
		{"/c/id", "../../etc", ""},
		{"/c/id", "usr/lib/jvm", ""},
		{"/c/id", "", ""},
	} {
		got, err := HostPath(c.dir, c.p)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("HostPath(%q, %q) = %q, %v; want %q", c.dir, c.p, got, err, c.want)
		}
	}
}
