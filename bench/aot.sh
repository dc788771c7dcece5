#!/usr/bin/env bash
# JDK 25's AOT cache on filecache (issue 13): start time with the cache
# against without it, and what the cache costs in memory.
#
# 1. A training run: filecache under Temurin 25 with -XX:AOTCacheOutput=F,
#    driven by its own scenario (jvmfit load) for WARMUP+DURATION, then
#    stopped with SIGTERM and waited for (the JVM writes the cache as it
#    exits, in a second JVM, which takes longer than a trial's 3 s stop
#    grace: that is why it runs outside `jvmfit run`).
# 2. N trials each (`jvmfit run`, LIMIT, 1 CPU, RATE), alternating with and
#    without -XX:AOTCache=F, so that the machine's load falls on both alike.
# 3. The medians: start-to-ready seconds and their ratio; cgroup peak,
#    working set peak and the resident size of the mapped archive (the
#    probe's smaps reading: the cache, or without it the JDK's default CDS
#    archive).
#
# The same again with the jar extracted (`-Djarmode=tools extract`): a
# Spring Boot fat jar loads its classes from nested jars, which no CDS
# archive or AOT cache can hold, so only the extracted layout shows what the
# cache can do for the app's own classes. EXTRACTED=0 skips it.
#
# N= trials per mode (default 3), LIMIT= (256Mi), RATE= (100), JAVA= (Temurin 25).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
N=${N:-3}
LIMIT=${LIMIT:-256Mi}
RATE=${RATE:-100}
WARMUP=${WARMUP:-5s}
DURATION=${DURATION:-15s}
EXTRACTED=${EXTRACTED:-1}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
jar=$root/workloads/filecache/target/filecache.jar
for need in "$JAVA" bin/jvmfit "$jar"; do
  [[ -e $need ]] || { echo "aot: $need is missing (Temurin 25: .ci/install; the rest: make build workloads)" >&2; exit 2; }
done
out=$(mktemp -d /tmp/jvmfit-aot.XXXXXX)
pid=
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"; fi
  rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# descriptor JAR: a copy of filecache's app.yaml running JAR.
descriptor() {
  local dir=$out/app-$(basename "$(dirname "$1")")
  mkdir -p "$dir"
  sed -e "s|^jar: .*|jar: $1|" -e "s|^scenario: .*|scenario: $root/workloads/filecache/scenario.yaml|" \
    -e "s|^option_sets: .*||" workloads/filecache/app.yaml >"$dir/app.yaml"
  echo "$dir/app.yaml"
}

# train JAR CACHE: the training run under load. Another process can take
# the port between choosing it and the app binding it (tests run on this
# machine too): then the app exits before it is ready, and the training
# starts again on a fresh port, at most three times.
train() {
  local attempt
  for attempt in 1 2 3; do
    if train_once "$1" "$2"; then
      echo "trained: $(grep -o 'AOTCache creation is complete.*' "$2.log")"
      return 0
    fi
    grep -q 'already in use' "$2.log" || break
    echo "  training: the port was taken; again on another (attempt $((attempt + 1)))"
  done
  echo "aot: the training JVM exited before it was ready; its log:" >&2
  grep -v '\[aot\]' "$2.log" | head -40 >&2
  exit 1
}

train_once() {
  local port i
  rm -f "$2"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$out" && exec setsid "$JAVA" -XX:AOTCacheOutput="$2" -XX:ActiveProcessorCount=1 -Xmx128m \
    -jar "$1" --server.port=$port >"$2.log" 2>&1) &
  pid=$!
  for i in $(seq 1 240); do
    curl -sf "http://127.0.0.1:$port/actuator/health" >/dev/null && break
    if ! kill -0 "$pid" 2>/dev/null; then wait "$pid" || true; pid=; return 1; fi
    sleep 0.5
  done
  bin/jvmfit load --scenario workloads/filecache/scenario.yaml --target "http://127.0.0.1:$port" \
    --var files=200 --var workers=20 --rate "$RATE" --warmup "$WARMUP" --duration "$DURATION" >"$2.load" 2>&1
  kill -TERM "$pid"
  wait "$pid" || true
  pid=
  [[ -s $2 ]] || { echo "aot: the training run wrote no cache; its log:" >&2; tail "$2.log" >&2; exit 1; }
}

# evict FILE...: drop the files' clean pages from the page cache, so the
# next trial reads them and its cgroup is charged for them, as a fresh
# container is. Without this the AOT cache's pages stay charged to whoever
# first read them (the training run, outside any trial), and the cgroup
# peak with the cache leaves them out.
evict() {
  python3 -c 'import os, sys
for f in sys.argv[1:]:
    fd = os.open(f, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)' "$@"
}

# trial NAME APP JVM: one jvmfit run; prints "verdict start peak ws archive
# metaspace" (bytes). The app's jar, the JDK's default CDS archive and the
# AOT cache are evicted first, for both modes alike.
trial() {
  local db=$out/$1.db
  evict "$jar" "$cache" "$(dirname "$JAVA")"/../lib/server/classes*.jsa
  bin/jvmfit run --app "$2" --memory "$LIMIT" --cpus 1 --java "$JAVA" --jvm "$3" \
    --rate "$RATE" --warmup "$WARMUP" --duration "$DURATION" --db "$db" >"$out/$1.txt" 2>&1 || true
  bin/jvmfit report --db "$db" -f json | jq -r '.[0] | [.verdict + (if .kind != "" and .kind != null then "(" + .kind + ")" else "" end), .start_seconds, .memory_peak_bytes,
    .working_set_peak_bytes, ([.series[]?.archive_rss // 0] | max // 0), (.summary.metaspace_peak // 0)] | @tsv'
}

# compare LABEL JAR: train, then N alternating pairs, then the medians.
compare() {
  local label=$1 i app
  jar=$2 cache=$out/$1.aot
  app=$(descriptor "$jar")
  train "$jar" "$cache"
  : >"$out/$label.with"; : >"$out/$label.without"
  for i in $(seq 1 "$N"); do
    trial "$label-with-$i" "$app" "-XX:AOTCache=$cache" >>"$out/$label.with"
    trial "$label-without-$i" "$app" default >>"$out/$label.without"
    echo "  pair $i: with $(cut -f1,2 "$out/$label.with" | tail -1 | tr '\t' ' ')s, without $(cut -f1,2 "$out/$label.without" | tail -1 | tr '\t' ' ')s (load $(cut -d' ' -f1 /proc/loadavg))"
  done
  # medians per column; a KO trial counts like any other (its start is real).
  local w wo
  w=$(median_cols "$out/$label.with"); wo=$(median_cols "$out/$label.without")
  awk -v label="$label" -v size="$(stat -c %s "$cache")" -v w="$w" -v wo="$wo" 'BEGIN {
    split(w, a, " "); split(wo, b, " "); mib = 1048576
    printf "%s: AOT cache %.1f MiB on disk\n", label, size / mib
    printf "  start (median)        with %6.2f s   without %6.2f s   ratio %.2fx\n", a[1], b[1], a[1] / b[1]
    printf "  cgroup peak           with %6.1f MiB without %6.1f MiB cost %+.1f MiB\n", a[2] / mib, b[2] / mib, (a[2] - b[2]) / mib
    printf "  working set peak      with %6.1f MiB without %6.1f MiB cost %+.1f MiB\n", a[3] / mib, b[3] / mib, (a[3] - b[3]) / mib
    printf "  archive resident      with %6.1f MiB without %6.1f MiB cost %+.1f MiB\n", a[4] / mib, b[4] / mib, (a[4] - b[4]) / mib
    printf "  metaspace peak        with %6.1f MiB without %6.1f MiB\n", a[5] / mib, b[5] / mib
  }'
  echo "  verdicts: with $(cut -f1 "$out/$label.with" | sort | uniq -c | tr -s ' \n' ' '), without $(cut -f1 "$out/$label.without" | sort | uniq -c | tr -s ' \n' ' ')"
}

# median_cols FILE: the median of columns 2.. of a TSV, space-separated.
median_cols() {
  local c vals=()
  for c in 2 3 4 5 6; do
    vals+=("$(cut -f$c "$1" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')")
  done
  echo "${vals[*]}"
}

echo "aot: filecache at $LIMIT, 1 CPU, $RATE req/s, $("$JAVA" -version 2>&1 | head -1), $N trials per mode, load $(cut -d' ' -f1-3 /proc/loadavg)"
compare fatjar "$jar"
if [[ $EXTRACTED == 1 ]]; then
  (cd "$out" && "$JAVA" -Djarmode=tools -jar "$jar" extract --destination "$out/extracted" >/dev/null)
  compare extracted "$out/extracted/filecache.jar"
fi
echo "aot: load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
