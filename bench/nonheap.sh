#!/usr/bin/env bash
# Where a JVM's memory goes at the end of load, read on the real process
# (issue 24: the expert passes filecache at 112Mi with a 56 MiB heap while
# tune's plan counted 81.7 MiB of non-heap). One app, one option set, one
# memory limit, 1 CPU: the app starts in a memory and cpu cgroup of its own
# (cgroup v1), its scenario runs with `jvmfit load`, and at the end of the
# measured phase, before the JVM stops, it prints
#   - jcmd VM.native_memory summary (NMT: committed per category),
#   - /proc/PID/smaps_rollup (Rss, Anonymous, file-backed, Pss),
#   - the cgroup's memory.stat (rss, cache, mapped_file, shmem, the kernel's
#     kmem usage) and its peak (memory.max_usage_in_bytes),
#   - the CDS archive's resident and anonymous pages (from smaps),
#   - the load's p99 and errors.
#   APP=filecache LIMIT=112Mi RATE=100 bash bench/nonheap.sh NAME [JVM options...]
#   ENV="MALLOC_ARENA_MAX=2"  extra environment for the JVM
#   NMT=off                   run without NMT (to see what NMT itself costs)
#   VARS="files=1000 workers=10"  the scenario's variables (default: filecache's)
# Output: bench/results/nonheap/NAME.txt (and on stdout). Needs root.
# Everything it starts (the JVM, the cgroups) is removed on exit, on error
# and on INT/TERM; cgroups left by a killed run are swept at the next start.
set -euo pipefail
cd "$(dirname "$0")/.."

NAME=${1:?usage: bench/nonheap.sh NAME [JVM options...]}
shift
APP=${APP:-filecache}
LIMIT=${LIMIT:-112Mi}
RATE=${RATE:-100}
WARMUP=${WARMUP:-5s}
DURATION=${DURATION:-15s}
PORT=${PORT:-18931}
JVMFIT=${JVMFIT:-bin/jvmfit}
OUT=${OUT:-bench/results/nonheap}
NMT=${NMT:-summary}
VARS=${VARS:-files=200 workers=20}
vars=()
for v in $VARS; do vars+=(--var "$v"); done
nmt=(-XX:NativeMemoryTracking=summary)
[[ $NMT == off ]] && nmt=()
jar=workloads/$APP/target/$APP.jar

[[ $(id -u) == 0 ]] || { echo "bench/nonheap.sh: needs root to create cgroups" >&2; exit 2; }
[[ -f $jar ]] || { echo "bench/nonheap.sh: $jar not built; run make workloads" >&2; exit 2; }
[[ -d /sys/fs/cgroup/memory ]] || { echo "bench/nonheap.sh: needs cgroup v1 (no /sys/fs/cgroup/memory)" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

bytes() { numfmt --from=iec-i "$1"; }
limit=$(bytes "$LIMIT")

# Sweep cgroups a killed run left (no process in them any more).
for d in /sys/fs/cgroup/{memory,cpu}/nonheap-probe-*; do
  [[ -d $d && ! -s $d/cgroup.procs ]] && rmdir "$d" 2>/dev/null || true
done

cg=nonheap-probe-$$
mem=/sys/fs/cgroup/memory/$cg cpu=/sys/fs/cgroup/cpu/$cg
pid=
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  for d in "$mem" "$cpu"; do
    [[ -d $d ]] && { for _ in 1 2 3 4 5; do rmdir "$d" 2>/dev/null && break; sleep 0.2; done; }
  done
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$mem" "$cpu" "$OUT"
echo "$limit" >"$mem/memory.limit_in_bytes"
echo "$limit" >"$mem/memory.memsw.limit_in_bytes" 2>/dev/null || true
echo 100000 >"$cpu/cpu.cfs_period_us"
echo 100000 >"$cpu/cpu.cfs_quota_us"

out=$OUT/$NAME.txt
load0=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
trap 'cleanup; rm -rf "$work"' EXIT
# The JVM starts inside the cgroups: a subshell joins them, then execs java.
(
  echo "$BASHPID" >"$mem/cgroup.procs"
  echo "$BASHPID" >"$cpu/cgroup.procs"
  # shellcheck disable=SC2086
  exec env ${ENV:-} java "${nmt[@]}" "$@" -jar "$jar" --server.port="$PORT"
) >"$work/app.log" 2>&1 &
pid=$!

for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { echo "bench/nonheap.sh: the app died before it was ready: $(tail -3 "$work/app.log")" >&2; exit 1; }
  sleep 0.2
done
# memory.stat every 0.2 s until the JVM stops: what peaked, and when.
( while kill -0 "$pid" 2>/dev/null; do
    awk -v u="$(cat "$mem/memory.usage_in_bytes" 2>/dev/null)" '$1 ~ /^(rss|cache|dirty|writeback|mapped_file)$/ { v[$1] = $2 } END { print u, v["rss"], v["cache"], v["dirty"], v["writeback"], t }' t="$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)" "$mem/memory.stat" 2>/dev/null || break
    sleep 0.2
  done ) >"$work/series" &
"$JVMFIT" load --scenario "workloads/$APP/scenario.yaml" --target "http://127.0.0.1:$PORT" \
  "${vars[@]}" --rate "$RATE" --warmup "$WARMUP" --duration "$DURATION" --json >"$work/load.json" \
  || echo "load: exit $? (the app may have died)" >>"$work/app.log"

alive=yes
kill -0 "$pid" 2>/dev/null || alive="no ($(tail -2 "$work/app.log" | tr '\n' ' '))"
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
mstat() { awk -v k="$1" '$1 == k { print $2 }' "$mem/memory.stat"; }
{
  echo "# $NAME: $APP at $LIMIT, 1 CPU, $RATE req/s, warmup $WARMUP, measured $DURATION; load average $load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
  echo "options: ${nmt[*]} $* ${ENV:+(env $ENV)}"
  echo "alive at the end of load: $alive"
  jq -r '[.phases[]? | select(.phase == "measure")] | first // {} | "load: \(.requests // "?") requests, success \(.success // "?"), p99 \((.latencies.p99 // 0) / 1e6 * 10 | floor / 10) ms"' "$work/load.json" 2>/dev/null || true
  echo "cgroup: usage $(mib "$(cat "$mem/memory.usage_in_bytes")") MiB, peak $(mib "$(cat "$mem/memory.max_usage_in_bytes")") MiB, kmem $(mib "$(cat "$mem/memory.kmem.usage_in_bytes" 2>/dev/null || echo 0)") MiB (peak $(mib "$(cat "$mem/memory.kmem.max_usage_in_bytes" 2>/dev/null || echo 0)")), tcp $(mib "$(cat "$mem/memory.kmem.tcp.usage_in_bytes" 2>/dev/null || echo 0)") MiB"
  echo "memory.stat: rss $(mib "$(mstat rss)"), cache $(mib "$(mstat cache)"), mapped_file $(mib "$(mstat mapped_file)"), shmem $(mib "$(mstat shmem)"), active_file $(mib "$(mstat active_file)"), inactive_file $(mib "$(mstat inactive_file)"), oom_kill $(awk '$1 == "oom_kill" { print $2 }' "$mem/memory.oom_control")"
  awk 'BEGIN { m = 0 } $1 > m { m = $1; line = $0 } $2 > r { r = $2 } $3 > c { c = $3 } $4 > d { d = $4 } $6 > th { th = $6 } END { split(line, a, " "); printf "sampled every 0.2 s: at the highest usage %.1f MiB: rss %.1f, cache %.1f, dirty %.1f; peaks: rss %.1f, cache %.1f, dirty %.1f MiB; threads %d there, %d at most\n", a[1]/1048576, a[2]/1048576, a[3]/1048576, a[4]/1048576, r/1048576, c/1048576, d/1048576, a[6], th }' "$work/series"
  if [[ $alive == yes ]]; then
    echo "--- /proc/$pid/smaps_rollup"
    sed 1d "/proc/$pid/smaps_rollup"
    echo "--- CDS archive mappings (smaps, kB): Rss, Anonymous"
    awk '/^[0-9a-f]+-[0-9a-f]+ / { cds = ($0 ~ /\.jsa/) } cds && /^Rss:/ { r += $2 } cds && /^Anonymous:/ { a += $2 } END { printf "cds rss %d kB, anonymous %d kB\n", r, a }' "/proc/$pid/smaps"
    echo "--- file-backed resident by file (smaps, top 8, kB)"
    awk '/^[0-9a-f]+-[0-9a-f]+ / { f = ($6 ~ /^\//) ? $6 : "" } f != "" && /^Rss:/ { r[f] += $2 } END { for (k in r) print r[k], k }' "/proc/$pid/smaps" | sort -rn | head -8
    echo "--- jcmd GC.heap_info"
    jcmd "$pid" GC.heap_info 2>&1 | sed 1d
    echo "--- jcmd VM.native_memory summary"
    jcmd "$pid" VM.native_memory summary 2>&1 | sed 1d | grep -E '^(Total|-|\s+\(mmap|\s+\(malloc|\s+\(arena|\s+\(stack)' | grep -vE '^\s+\((mmap: reserved=[0-9]+KB, committed=0KB|stack: reserved)' || true
  fi
} | tee "$out"
