#!/usr/bin/env bash
# jvmfit's figures against independent tools on one real filecache trial
# (issue 15): /proc VmRSS, the cgroup's max usage, jstat -gc and
# jcmd VM.native_memory, read at one moment. The test asserts the
# tolerances; this prints its table.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -run 'TestFidelity' -v ./internal/trial/ 2>&1 | grep -v '^=== '
