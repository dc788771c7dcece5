#!/usr/bin/env bash
# Large containers without a profile (issue 21): at 1 GiB and 4 GiB a
# heap-hungry panel app, filecache holding a working set of ~30% of the
# limit in its heap (FILES files of SIZE bytes, up to 2 versions each),
# runs under jvmfit's plan, UBI's script (MaxRAMPercentage=80) and
# run-java.sh (no -Xmx on JDK 10+: the JDK's 25%; docs/anchors.md): p99 at
# a fixed rate, then the throughput at saturation
# (16 closed workers for 10 s), and whether the kernel OOM-killed it.
# REPEATS runs of each cell; prints a table and writes bench/results/large-DATE.json
# in the common results format (bench/large.jq: one figure a cell and field,
# LIMIT.MODE.runN.FIELD), from which docs/launcher.md's table is generated.
# Needs root (real cgroups); about 2 minutes a trial on 2 cores.
#   LIMITS="1Gi 4Gi" CPUS=2 REPEATS=1 bash bench/large.sh
# KEEP=DIR keeps the database, each trial's JSON and logs there.
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
LIMITS=${LIMITS:-1Gi 4Gi}
CPUS=${CPUS:-2}
RATE=${RATE:-100}
REPEATS=${REPEATS:-1}
MODES=${MODES:-jvmfit ubi runjava}
JAVA=${JAVA:-$(command -v java)}
OUT=${OUT:-bench/results/large-$(date -u +%Y%m%dT%H%M%SZ).json}
# Working set per limit: files × size bytes uploaded before the load.
declare -A FILES=([1Gi]=3000 [2Gi]=6000 [4Gi]=12000 [8Gi]=24000)
SIZE=${SIZE:-100000}

if [[ $(id -u) != 0 ]]; then
  echo "bench/large.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/large.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -f workloads/filecache/target/filecache.jar ]] || { echo "bench/large.sh: workloads/filecache is not built; run make workloads" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# filecache's own descriptor with a store as large as the limit allows
# (its default cap is 64 MB), through Spring's environment binding.
sed -e "s|^jar: .*|jar: $PWD/workloads/filecache/target/filecache.jar|" \
  -e "s|^scenario: .*|scenario: $PWD/workloads/filecache/scenario.yaml|" \
  -e "s|^option_sets: .*||" \
  -e 's|^env: {}|env: {FILECACHE_MAXTOTALSIZE: 64GB, FILECACHE_MAXVERSIONS: "2"}|' \
  workloads/filecache/app.yaml >"$work/app.yaml"

printf '| limit | options | heap (-Xmx) | p99 at %s req/s | throughput at saturation | verdict | kernel OOM kill | cgroup peak |\n|---|---|---|---|---|---|---|---|\n' "$RATE" >"$work/table"
rows=()
for lim in $LIMITS; do
  files=${FILES[$lim]:-3000}
  for mode in $MODES; do
    for r in $(seq 1 "$REPEATS"); do
      echo "bench/large.sh: $lim, $mode, run $r: $files files of $SIZE bytes" >&2
      "$JVMFIT" run --app "$work/app.yaml" --db "$work/large.db" --java "$JAVA" --memory "$lim" --cpus "$CPUS" \
        --jvm "$mode" --rate "$RATE" --var "files=$files" --var "size=$SIZE" --var workers=10 \
        --warmup 10s --duration 30s --saturate --json >"$work/$lim-$mode-$r.json" 2>"$work/$lim-$mode-$r.log" || true
      f="$work/$lim-$mode-$r.json"
      if [[ ! -s $f ]]; then
        echo "bench/large.sh: $lim $mode: no result: $(tail -1 "$work/$lim-$mode-$r.log")" >&2; continue
      fi
      row=$(jq -c --arg lim "$lim" --arg mode "$mode" --argjson run "$r" '{limit: $lim, jvm: $mode, run: $run,
        heap_max_bytes: .heap_max_bytes, verdict: .verdict, kind: .kind, failed: .failed,
        p99_ms: ((.load.latencies.p99 // 0) / 1e6), saturation_rps: (.saturation.throughput // 0),
        oom_killed: (.kind == "oom-killed"), memory_peak_bytes: .memory_peak_bytes, options: .spec.jvm_options}' "$f")
      rows+=("$row")
      jq -r '"| \(.limit) | \(.jvm) | \(.heap_max_bytes / 1048576 | floor)Mi | \(.p99_ms * 10 | floor / 10) ms | \(.saturation_rps | floor) req/s | \(.verdict)\(if .kind != "" then " " + .kind else "" end) | \(if .oom_killed then "yes" else "no" end) | \(.memory_peak_bytes / 1048576 | floor)Mi |"' <<<"$row" >>"$work/table"
    done
  done
done
echo "filecache, $CPUS CPU(s), working set ~30% of the limit, no profile:"
cat "$work/table"
mkdir -p "$(dirname "$OUT")"
printf '%s\n' "${rows[@]:-}" | jq -s --arg date "$(date -u +%FT%TZ)" --arg host "$(uname -n)" --arg kernel "$(uname -r)" \
  --argjson cores "$(nproc)" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" --arg jdk "$("$JAVA" -version 2>&1 | head -1)" \
  --arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  '{date: $date, machine: {host: $host, kernel: $kernel, cores: $cores, load: $load}, jdk: $jdk, commit: $commit, rows: map(select(. != null))}' |
  jq --arg script bench/large.sh --arg cpus "$CPUS" -f bench/large.jq \
    --arg settings "filecache, $CPUS CPU(s), $("$JAVA" -version 2>&1 | head -1), no profile, $RATE req/s (10 s warm-up, 30 s measured), 16 closed workers for 10 s at saturation; files of $SIZE bytes: $(for l in $LIMITS; do printf '%s at %s, ' "${FILES[$l]:-3000}" "$l"; done)2 versions each; $REPEATS repeat(s); modes $MODES" >"$OUT"
echo "bench/large.sh: results in $OUT" >&2
