// Package image builds the container images the Docker backend's tests
// run, offline: no registry is reachable on the machines make test runs on.
//
// A base image is a small root filesystem made from a JDK on this host: the
// JDK's directory (symbolic links that leave it, into /etc/java-17-openjdk
// and /etc/ssl, are followed and stored as files), every library that `ldd`
// lists for its executables and shared objects, the loader, a minimal
// /etc/passwd and /etc/group, and /tmp. It goes in through `docker import`,
// with JAVA_HOME and PATH set. An app image is a Dockerfile FROM that base
// adding one jar as /app.jar, with ENTRYPOINT java -jar /app.jar, so JVM
// options reach it only through JAVA_TOOL_OPTIONS, as for a user's image.
//
// Each image carries the label jvmfit.inputs, a hash of what it was built
// from; a build is skipped when the image exists with the same hash.
package image
