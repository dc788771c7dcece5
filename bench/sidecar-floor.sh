#!/usr/bin/env bash
# The floor of a sidecar trial (docs/measured/sidecar.md): the p99 and p999
# of jvmfit's load generator alone against jvmfit's built-in upstream
# (`jvmfit upstream`, a trial's kind: http service, no latency of its own),
# at 1000 req/s, both on the side CPU a trial with placement: separate gives
# them (the last CPU), while nothing of the trial runs on CPU 0. Whatever a
# proxy trial measures above this floor is the proxy's. The reference in the
# same run: the same load with the generator and the upstream left anywhere
# (no pinning), so the ratio says what the placement is worth on this host.
# The two alternate for ROUNDS rounds; each figure is the median of its rounds.
# Each round also measures the pinned pair with the upstream delaying each
# answer by LATENCY (workloads/sidecar's "exponential 100us"): what the
# sample's own upstream adds to the floor before the proxy adds anything.
#   RATE=1000 SECONDS_=20 ROUNDS=3 LATENCY="exponential 100us" bash bench/sidecar-floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/results.sh

JVMFIT=${JVMFIT:-bin/jvmfit}
RATE=${RATE:-1000}
SECS=${SECONDS_:-20}
ROUNDS=${ROUNDS:-3}
SIZE=${SIZE:-512}
LATENCY=${LATENCY:-exponential 100us}

command -v jq >/dev/null || { echo "bench/sidecar-floor.sh: jq not installed (bash .ci/install)" >&2; exit 1; }
command -v taskset >/dev/null || { echo "bench/sidecar-floor.sh: taskset not installed (util-linux)" >&2; exit 1; }
(( $(nproc) >= 2 )) || { echo "bench/sidecar-floor.sh: needs 2 CPUs: the floor is measured off CPU 0" >&2; exit 1; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit
side=$(( $(nproc) - 1 ))

work=$(mktemp -d)
up_pid=""
stop_upstream() {
  if [[ -n $up_pid ]]; then kill "$up_pid" 2>/dev/null || true; wait "$up_pid" 2>/dev/null || true; up_pid=""; fi
}
cleanup() { stop_upstream; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_upstream [CPUS] [LATENCY]: the built-in upstream, pinned to CPUS if
# given, with no latency unless given; sets $url.
start_upstream() {
  local pin=()
  [[ -n ${1:-} ]] && pin=(taskset -c "$1")
  : >"$work/up"
  "${pin[@]}" "$JVMFIT" upstream --size "$SIZE" --latency "${2:-0}" >"$work/up" 2>&1 &
  up_pid=$!
  for _ in $(seq 50); do grep -q 'listening on' "$work/up" && break; sleep 0.1; done
  url="http://$(grep -o '127.0.0.1:[0-9]*' "$work/up" | head -1)/"
}

# measure NAME [CPUS] [LATENCY]: one run; appends "p50_us p99_us p999_us" to $work/NAME.
measure() {
  local name=$1 pin=()
  [[ -n ${2:-} ]] && pin=(taskset -c "$2")
  start_upstream "${2:-}" "${3:-}"
  "${pin[@]}" "$JVMFIT" load --json --rate "$RATE" -d "${SECS}s" "$url" >"$work/out.json" 2>"$work/err" || {
    echo "bench/sidecar-floor.sh: load failed: $(tail -1 "$work/err")" >&2; exit 1; }
  stop_upstream
  jq -r '[.latencies.p50, .latencies.p99, .latencies.p999] | map(. / 1000) | map(tostring) | join(" ")' \
    "$work/out.json" >>"$work/$name"
  jq -e '.success == 1' "$work/out.json" >/dev/null || { echo "bench/sidecar-floor.sh: $name had failed requests" >&2; exit 1; }
}

# median NAME COLUMN
median() { awk -v c="$2" '{print $c}' "$work/$1" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

for r in $(seq "$ROUNDS"); do
  if (( r % 2 )); then measure pinned "$side"; measure shared; else measure shared; measure pinned "$side"; fi
  measure delayed "$side" "$LATENCY"
  echo "round $r: pinned $(tail -1 "$work/pinned"), shared $(tail -1 "$work/shared"), upstream $LATENCY $(tail -1 "$work/delayed") (p50 p99 p999 µs)" >&2
done

p50=$(median pinned 1); p99=$(median pinned 2); p999=$(median pinned 3)
s99=$(median shared 2); s999=$(median shared 3)
d50=$(median delayed 1); d99=$(median delayed 2); d999=$(median delayed 3)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", (b > 0) ? a / b : 0}'; }
printf 'floor at %s req/s on CPU %s: p50 %s µs, p99 %s µs, p999 %s µs (unpinned: p99 %s µs, p999 %s µs)\n' \
  "$RATE" "$side" "$p50" "$p99" "$p999" "$s99" "$s999"
printf 'with the upstream delaying each answer by %s: p50 %s µs, p99 %s µs, p999 %s µs\n' "$LATENCY" "$d50" "$d99" "$d999"
write_results sidecar-floor.json bench/sidecar-floor.sh \
  "rate=$RATE seconds=$SECS rounds=$ROUNDS size=$SIZE side_cpu=$side latency=$LATENCY" \
  rate="$RATE" p50_us="$p50" p99_us="$p99" p999_us="$p999" \
  unpinned_p99_us="$s99" unpinned_p999_us="$s999" \
  delayed_p50_us="$d50" delayed_p99_us="$d99" delayed_p999_us="$d999" \
  p99_vs_unpinned="$(ratio "$p99" "$s99")" p999_vs_unpinned="$(ratio "$p999" "$s999")"
