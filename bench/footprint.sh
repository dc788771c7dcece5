#!/usr/bin/env bash
# Footprint: the smallest memory limit at which each sample service passes
# its SLO at 1 CPU, with jvmfit's options against two references searched in
# the same run: the JDK's own ergonomics, and the UBI images' defaults
# (bench/anchors.yaml). Prints each minimum, the container's peak there, and
# jvmfit's ratio to each reference (below 1: jvmfit needs less memory).
# Needs root (real cgroups). About 10-15 minutes per app on 2 cores.
#   APPS="filecache sort" STEP=8Mi REPEATS=1 bash bench/footprint.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APPS=${APPS:-filecache sort}
STEP=${STEP:-8Mi}
REPEATS=${REPEATS:-1}

if [[ $(id -u) != 0 ]]; then
  echo "bench/footprint.sh: needs root to create cgroups; skipping the footprint benchmark" >&2
  exit 0
fi
command -v jq >/dev/null || { echo "bench/footprint.sh: jq not installed (bash .ci/install); skipping" >&2; exit 0; }
for a in $APPS; do
  [[ -f workloads/$a/target/$a.jar ]] || { echo "bench/footprint.sh: workloads/$a is not built; run make workloads" >&2; exit 2; }
done
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every app at the same short load: 5 s warm-up, 10 s measured, its own rate
# and SLO; filecache scaled down as in the demo.
declare -A extra=([filecache]="--var files=100 --var workers=10 --rate 100")
printf '| app | JDK defaults | UBI defaults | jvmfit | jvmfit / defaults | jvmfit / UBI |\n|---|---|---|---|---|---|\n' >"$work/table"
for a in $APPS; do
  echo "bench/footprint.sh: searching $a (JDK defaults, UBI defaults, jvmfit)" >&2
  # shellcheck disable=SC2086 # extra holds several words on purpose
  "$JVMFIT" minmem --app "workloads/$a/app.yaml" --db "$work/fp.db" --experiment "footprint-$a" \
    --option-sets bench/anchors.yaml --jvm default,set:ubi,jvmfit --cpus 1 \
    --min 64Mi --max 1Gi --step "$STEP" --repeats "$REPEATS" --soak 0 \
    --warmup 5s --duration 10s ${extra[$a]:-} --json >"$work/$a.json" 2>"$work/$a.log" || {
    echo "bench/footprint.sh: minmem on $a failed: $(tail -1 "$work/$a.log")" >&2; exit 1; }
  # "160Mi (peak 150.2Mi)" for a mode, "none" if nothing up to --max passed.
  cell() {
    jq -r --arg m "$1" '.modes[] | select(.jvm == $m) | .min_ok_bytes as $ok |
      if $ok == 0 then "none" else
        ([.trials[] | select(.limit_bytes == $ok and .verdict == "OK") | .memory_peak_bytes] | max) as $p |
        "\($ok / 1048576)Mi (peak \(($p // 0) / 1048576 * 10 | floor / 10)Mi)" end' "$work/$a.json"
  }
  minok() { jq -r --arg m "$1" '.modes[] | select(.jvm == $m) | .min_ok_bytes' "$work/$a.json"; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
  j=$(minok jvmfit) d=$(minok default) u=$(minok set:ubi)
  printf '| %s | %s | %s | %s | %s | %s |\n' "$a" "$(cell default)" "$(cell set:ubi)" "$(cell jvmfit)" \
    "$(ratio "$j" "$d")" "$(ratio "$j" "$u")" >>"$work/table"
  echo "bench/footprint.sh: $a took $(jq '[.modes[].trial_count] | add' "$work/$a.json") trials" >&2
done
echo "Smallest memory limit that passes at 1 CPU (grid $STEP, $REPEATS repeat(s) at the boundary):"
cat "$work/table"
