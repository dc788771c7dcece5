#!/usr/bin/env bash
# Measures the service's live heap the way docs/workloads.md reports it: start
# the jar with JDK defaults, force a full GC (jcmd GC.run) and read GC.heap_info
# after start, after seed 001's phase one and after its phase two.
#   usage: live-heap.sh [JAVA] [FILES] [WORKERS] [REQUESTS_PER_WORKER] [PORT]
#   e.g.   live-heap.sh /usr/lib/jvm/java-17-openjdk-amd64/bin/java 200 200 2000
set -euo pipefail
cd "$(dirname "$0")"
JAVA=${1:-java}; FILES=${2:-200}; WORKERS=${3:-200}; REQUESTS=${4:-2000}; PORT=${5:-18123}
JCMD="$(dirname "$(readlink -f "$(command -v "$JAVA")")")/jcmd"
DRIVER=src/test/java/io/github/jvmfit/filecache/SeedDriver.java
[ -f target/filecache.jar ] || { echo "target/filecache.jar missing: run make workloads" >&2; exit 2; }
[ -x "$JCMD" ] || { echo "no jcmd next to $JAVA: give a full JDK" >&2; exit 2; }

"$JAVA" -jar target/filecache.jar --server.port="$PORT" > "/tmp/filecache-live-heap.$PORT.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1200); do curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null && break; sleep 0.1; done

heap() {
  "$JCMD" $pid GC.run >/dev/null
  echo "== $1: $(grep -o 'READY in [0-9]* ms' "/tmp/filecache-live-heap.$PORT.log"), rss $(awk '/VmRSS/{print $2 " kB"}' /proc/$pid/status)"
  "$JCMD" $pid GC.heap_info | sed -n '2,$p'
}
heap "after start"
"$JAVA" "$DRIVER" "http://127.0.0.1:$PORT" load "$FILES"
heap "after phase one ($FILES files)"
"$JAVA" "$DRIVER" "http://127.0.0.1:$PORT" mix "$FILES" "$WORKERS" "$REQUESTS"
heap "after phase two ($WORKERS workers x $REQUESTS requests)"
