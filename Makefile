# jvmfit: one static binary plus the Java sample services it sizes.
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
export CGO_ENABLED := 0
BIN := bin/jvmfit
MVN ?= mvn -B -q -Dstyle.color=never

.PHONY: all build workloads test test-go test-java bench demo clean prereqs prereqs-test prereqs-demo prereqs-bench e2e-k8s e2e-v2engines

all: build

build:
	$(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN) ./cmd/jvmfit

# The Java sample services (jars under workloads/*/target).
workloads:
	cd workloads && $(MVN) -DskipTests package

# What test, demo and bench need on a fresh machine of this kind (Debian,
# root): .ci/install installs what is missing, one line per thing, and is a
# no-op of a few milliseconds once everything is there.
prereqs:
	@bash .ci/install all
prereqs-test:
	@bash .ci/install test
prereqs-demo:
	@bash .ci/install demo
prereqs-bench:
	@bash .ci/install bench

# Both runners always run, so both summaries show (go test's per-package
# "ok" lines, Surefire's "Tests run:"); a failure in either fails the target.
GO_TEST := $(GO) test -count=1 -timeout 25m ./...
JAVA_TEST := mvn -B -Dstyle.color=never --fail-at-end test

test: prereqs-test build workloads
	@status=0; \
	echo "$(GO_TEST)"; $(GO_TEST) || status=1; \
	echo "cd workloads && $(JAVA_TEST)"; (cd workloads && $(JAVA_TEST)) || status=1; \
	exit $$status

test-go: prereqs-test
	$(GO_TEST)

test-java: prereqs-test
	cd workloads && $(JAVA_TEST)

bench: prereqs-bench build workloads
	bash bench/run.sh

demo: prereqs-demo build workloads
	bash demo/run.sh

# Opt-in, not part of test: a real single-node Kubernetes on this machine
# (etcd, API server, scheduler, controller manager, kubelet, containerd),
# brought up, used for the Kubernetes backend's end-to-end run, and torn
# down on every exit (docs/kubernetes-e2e.md).
e2e-k8s: prereqs-test build workloads
	@bash .ci/k8s/build e2e
	bash e2e/k8s/run.sh

# Opt-in, not part of test yet: Docker, Podman and the stall steps in the
# cgroup v2 guest (docs/cgroupv2-engines.md), each its own layout.
e2e-v2engines: prereqs-test
	JVMFIT_V2GUEST_LAYOUTS=stall,docker,podman $(GO) test -count=1 -v -timeout 90m -run TestCgroupV2Guest ./e2e/cgroupv2

clean:
	rm -rf bin demo-report
	cd workloads && $(MVN) clean || true
