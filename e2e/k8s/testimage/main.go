// Command testimage builds a sample service's image offline, as the Docker
// backend's tests do (internal/image): a base image from a host JDK, then
// the jar FROM it. The Kubernetes e2e (e2e/k8s) runs it before copying the
// image into the cluster's containerd.
//
//	go run ./e2e/k8s/testimage -jar workloads/filecache/target/filecache.jar -tag jvmfit-test/filecache:jdk17
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
)

func main() {
	jar := flag.String("jar", "", "the service's jar (required)")
	tag := flag.String("tag", "", "the app image to make, e.g. jvmfit-test/filecache:jdk17 (required)")
	jdk := flag.String("jdk", image.JDK17, "the host JDK the base image is made of")
	base := flag.String("base", "jvmfit-test/jdk17:latest", "the base image to make from -jdk")
	flag.Parse()
	if *jar == "" || *tag == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "testimage: usage: testimage -jar JAR -tag IMAGE [-jdk DIR -base IMAGE]")
		os.Exit(2)
	}
	if _, err := os.Stat(*jar); err != nil {
		fmt.Fprintf(os.Stderr, "testimage: no jar %s (make workloads builds it)\n", *jar)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	e := docker.Default()
	if _, err := image.JDKBase(ctx, e, *jdk, *base); err != nil {
		fmt.Fprintln(os.Stderr, "testimage:", err)
		os.Exit(1)
	}
	built, err := image.App(ctx, e, *base, *jar, *tag)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testimage:", err)
		os.Exit(1)
	}
	if built {
		fmt.Println("testimage: built", *tag)
	} else {
		fmt.Println("testimage:", *tag, "up to date")
	}
}
