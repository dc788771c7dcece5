package jdk

import "fmt"

// FromRelease describes the runtime at home from the text of its release
// file, for a JDK that is not on this host's filesystem (one inside a
// container image).
func FromRelease(home, text string) (JDK, error) {
	j := JDK{Path: home + "/bin/java", Home: home}
	if !readRelease(text, &j) {
		return JDK{}, fmt.Errorf("the release file of %s has no usable JAVA_VERSION", home)
	}
	return j, nil
}
