# jvmfit: one static binary plus the Java sample services it sizes.
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
export CGO_ENABLED := 0
BIN := bin/jvmfit
MVN ?= mvn -B -q -Dstyle.color=never

.PHONY: all build workloads test test-go test-java bench demo clean

all: build

build:
	$(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN) ./cmd/jvmfit

# The Java sample services (Spring Boot jars under workloads/*/target).
workloads:
	cd workloads && $(MVN) -DskipTests package

test: build workloads test-go test-java

test-go:
	$(GO) test -count=1 -timeout 25m ./...

test-java:
	cd workloads && mvn -B -Dstyle.color=never test

bench: build workloads
	bash bench/run.sh

demo: build workloads
	bash demo/run.sh

clean:
	rm -rf bin demo-report
	cd workloads && $(MVN) clean || true
