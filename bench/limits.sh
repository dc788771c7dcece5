#!/usr/bin/env bash
# filecache at 1 CPU under the JDK's defaults and under jvmfit's plan, one
# `jvmfit run` at each of a few limits (docs/run.md, "Measured: filecache at
# 1 CPU"): verdict, heap, start, p99, cgroup and RSS peaks. Writes
# bench/results/limits.json (keys LIMIT.MODE.FIELD), from which run.md's
# table is generated. Needs root (real cgroups); about 45 s a trial.
#   LIMITS="160Mi 256Mi 384Mi" RATE=50 bash bench/limits.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
LIMITS=${LIMITS:-160Mi 256Mi 384Mi}
MODES=${MODES:-default jvmfit}
CPUS=${CPUS:-1}
RATE=${RATE:-50}
JAVA=${JAVA:-$(command -v java)}

if [[ $(id -u) != 0 ]]; then
  echo "bench/limits.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/limits.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -f workloads/filecache/target/filecache.jar ]] || { echo "bench/limits.sh: workloads/filecache is not built; run make workloads" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

figures=() plans=()
for lim in $LIMITS; do
  for mode in $MODES; do
    echo "bench/limits.sh: $lim, $mode (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
    f=$work/$lim-$mode.json
    "$JVMFIT" run --app workloads/filecache/app.yaml --db "$work/limits.db" --java "$JAVA" --memory "$lim" --cpus "$CPUS" \
      --jvm "$mode" --rate "$RATE" --warmup 10s --duration 20s --json >"$f" 2>"$work/$lim-$mode.log" || true
    if [[ ! -s $f ]]; then
      echo "bench/limits.sh: $lim $mode: no result: $(tail -1 "$work/$lim-$mode.log")" >&2
      continue
    fi
    while read -r kv; do figures+=("$kv"); done < <(jq -r --arg c "$lim.$mode" '
      def mib: . / 1048576 * 10 | round / 10;
      "\($c).ok=\(if .verdict == "OK" then 1 else 0 end)",
      "\($c).heap_mib=\(.heap_max_bytes | mib)",
      "\($c).start_s=\(.start_seconds * 10 | round / 10)",
      "\($c).p99_ms=\((.load.latencies.p99 // 0) / 1e5 | round / 10)",
      "\($c).peak_mib=\(.memory_peak_bytes | mib)",
      "\($c).rss_peak_mib=\(.summary.rss_peak | mib)"' "$f")
    if [[ $mode == jvmfit ]]; then
      plans+=("plan:$lim/$CPUS/balanced=$("$JVMFIT" flags --java "$JAVA" --memory "$lim" --cpus "$CPUS" --goal balanced)")
    fi
  done
done
# shellcheck source=bench/results.sh
. bench/results.sh
write_results limits.json bench/limits.sh \
  "workloads/filecache/app.yaml at $CPUS CPU(s), $RATE req/s, 10 s warm-up, 20 s measured, the descriptor's SLO; one trial a cell; modes $MODES" \
  "${figures[@]}" "${plans[@]}"
