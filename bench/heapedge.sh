#!/usr/bin/env bash
# Where an app's heap really fails, against its profile's live set
# (docs/launcher.md, "The heap's floor with a profile"): the launcher's
# options for the app at PLAN with the profile, -Xmx replaced by each heap,
# run at a generous MEM so that only the heap can fail (1 CPU, the app's
# rate, 5 s warm-up, 15 s measured). Prints each heap's verdict, whether the
# app got ready, p99 and GC share, and the heap over the live set.
# Needs root (real cgroups). About 40 s a heap (inventory adds PostgreSQL).
#   APP=sort PROFILE=p.json PLAN=112Mi MEM=160Mi RATE=20 HEAPS="12m 14m 16m" bash bench/heapedge.sh
# KEEP=DIR keeps the database and the trials' JSON there.
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-filecache}
PLAN=${PLAN:-120Mi}
MEM=${MEM:-160Mi}
RATE=${RATE:-100}
HEAPS=${HEAPS:-12m 14m 16m 18m}
: "${PROFILE:?PROFILE=FILE: the app's profile (jvmfit run --profile-out, or tune's profile_file)}"

if [[ $(id -u) != 0 ]]; then
  echo "bench/heapedge.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/heapedge.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -f workloads/$APP/target/$APP.jar ]] || { echo "bench/heapedge.sh: workloads/$APP is not built; run make workloads" >&2; exit 2; }
[[ -f $PROFILE ]] || { echo "bench/heapedge.sh: no profile $PROFILE" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
live=$(jq '.liveHeapBytes' "$PROFILE")
opts=$("$JVMFIT" flags --memory "$PLAN" --cpus 1 --profile "$PROFILE")
echo "$APP at 1 CPU, $RATE req/s, limit $MEM; live set $(awk -v b="$live" 'BEGIN { printf "%.1f MiB", b / 1048576 }'); the launcher's options at $PLAN with -Xmx replaced (load average at start $(cut -d' ' -f1-3 /proc/loadavg)):"
echo "| -Xmx | / live set | verdict | ready | p99 | GC share | load |"
echo "|---|---|---|---|---|---|---|"
for h in $HEAPS; do
  o=$(sed -E "s/-Xmx[0-9]+[mk]/-Xmx$h/" <<<"$opts")
  "$JVMFIT" run --app "workloads/$APP/app.yaml" --db "$work/edge.db" --experiment "heapedge-$APP" --memory "$MEM" --cpus 1 \
    --rate "$RATE" --warmup 5s --duration 15s --jvm "$o" --json >"$work/$h.json" 2>"$work/$h.log" || true
  jq -r --arg h "$h" --argjson live "$live" '
    ($h | sub("m$"; "") | tonumber) as $mib |
    "| \($h) | \($mib * 1048576 / $live * 100 | floor / 100) | \(.verdict) \(.kind) | \(if .start_seconds > 0 then "yes" else "no" end) | \((.load.latencies.p99 // 0) / 1e6 | floor) ms | \(.summary.gc_share * 100 | floor)% |"' \
    "$work/$h.json" | tr -d '\n'
  echo " $(cut -d' ' -f1 /proc/loadavg) |"
done
