#!/usr/bin/env bash
# Footprint: the smallest memory limit at which each sample service passes
# its SLO at 1 CPU, with jvmfit's options against what users pick instead,
# all searched in the same run (docs/anchors.md): the JDK's own ergonomics
# (default), fabric8's run-java.sh (runjava), the Paketo memory calculator
# (paketo) and Red Hat's UBI images (ubi). Prints each minimum with its
# start time, p99 and trial count, and jvmfit's ratio to the best anchor
# (below 1: jvmfit needs less memory than any of them).
# Needs root (real cgroups). About 15-25 minutes per app on 2 quiet cores; 58
# min for both on 2026-11-26 at load average 4-28 (filecache 88 trials, sort 50).
#   APPS="filecache sort" STEP=8Mi REPEATS=1 bash bench/footprint.sh
# KEEP=DIR keeps the database, the minmem JSON and logs there.
# Writes bench/results/footprint.json (each minimum in MiB, 0 = none passed,
# and each ratio), the figures docs/anchors.md and README.md quote.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

JVMFIT=${JVMFIT:-bin/jvmfit}
APPS=${APPS:-filecache sort}
STEP=${STEP:-8Mi}
REPEATS=${REPEATS:-1}
MODES=default,runjava,paketo,ubi,jvmfit

if [[ $(id -u) != 0 ]]; then
  echo "bench/footprint.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/footprint.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
for a in $APPS; do
  [[ -f workloads/$a/target/$a.jar ]] || { echo "bench/footprint.sh: workloads/$a is not built; run make workloads" >&2; exit 2; }
done
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Every app at the same short load: 5 s warm-up, 10 s measured, its own rate
# and SLO; filecache scaled down as in the demo.
declare -A extra=([filecache]="--var files=100 --var workers=10 --rate 100")
figures=()
printf '| app | JDK defaults | run-java.sh | Paketo | UBI | jvmfit | jvmfit / best anchor |\n|---|---|---|---|---|---|---|\n' >"$work/table"
for a in $APPS; do
  echo "bench/footprint.sh: searching $a ($MODES)" >&2
  # shellcheck disable=SC2086 # extra holds several words on purpose
  "$JVMFIT" minmem --app "workloads/$a/app.yaml" --db "$work/fp.db" --experiment "footprint-$a" \
    --jvm "$MODES" --cpus 1 \
    --min 64Mi --max 1Gi --step "$STEP" --repeats "$REPEATS" --soak 0 \
    --warmup 5s --duration 10s ${extra[$a]:-} --json >"$work/$a.json" 2>"$work/$a.log" || {
    echo "bench/footprint.sh: minmem on $a failed: $(tail -1 "$work/$a.log")" >&2; exit 1; }
  # p99 of every stored trial, by id (nanoseconds).
  "$JVMFIT" report --db "$work/fp.db" -e "footprint-$a" --format json |
    jq 'map({key: (.id | tostring), value: (.load.latencies.p99 // 0)}) | from_entries' >"$work/$a.p99"
  # "160Mi (start 21.3s, p99 48ms, 9 trials)" for a mode; "none (9 trials)"
  # if nothing up to --max passed (Paketo's refusals count as trials here).
  cell() {
    jq -r --arg m "$1" --slurpfile p99 "$work/$a.p99" '.modes[] | select(.jvm == $m) | .min_ok_bytes as $ok |
      if $ok == 0 then "none (\(.trial_count) trials)" else
        [.trials[] | select(.limit_bytes == $ok and .verdict == "OK")] as $t |
        ([$t[].start_seconds] | max) as $s | ([$t[] | $p99[0][.id | tostring] // 0] | max) as $p |
        "\($ok / 1048576)Mi (start \($s * 10 | floor / 10)s, p99 \($p / 1e6 | floor)ms, \(.trial_count) trials)" end' "$work/$a.json"
  }
  minok() { jq -r --arg m "$1" '.modes[] | select(.jvm == $m) | .min_ok_bytes' "$work/$a.json"; }
  best=0
  for m in default runjava paketo ubi; do
    v=$(minok "$m")
    if [[ $v -gt 0 && ( $best -eq 0 || $v -lt $best ) ]]; then best=$v; fi
  done
  ratio=$(awk -v a="$(minok jvmfit)" -v b="$best" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }')
  for m in default runjava paketo ubi jvmfit; do
    figures+=("$a.$m.min_ok_mib=$(($(minok "$m") / 1048576))")
  done
  [[ $ratio == n/a ]] || figures+=("$a.jvmfit_to_best_anchor=$ratio")
  ok=$(minok jvmfit)
  [[ $ok -gt 0 ]] && figures+=("plan:$((ok / 1048576))Mi/1/balanced=$("$JVMFIT" flags --memory "$((ok / 1048576))Mi" --cpus 1)")
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$a" "$(cell default)" "$(cell runjava)" "$(cell paketo)" \
    "$(cell ubi)" "$(cell jvmfit)" "$ratio" >>"$work/table"
  echo "bench/footprint.sh: $a took $(jq '[.modes[].trial_count] | add' "$work/$a.json") trials" >&2
done
echo "Smallest memory limit that passes at 1 CPU (grid $STEP, $REPEATS repeat(s) at the boundary):"
cat "$work/table"
write_results footprint.json bench/footprint.sh \
  "APPS=$APPS STEP=$STEP REPEATS=$REPEATS, 1 CPU, minmem --jvm $MODES --min 64Mi --max 1Gi --soak 0 --warmup 5s --duration 10s (filecache: 100 files, 10 workers, 100 req/s)" \
  "${figures[@]}"
