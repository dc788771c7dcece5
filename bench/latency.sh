#!/usr/bin/env bash
# Load generator latency: jvmfit load against vegeta (the reference, v12.13.0,
# installed into bin/bench by this script) at the same fixed rates against the
# same trivial loopback Go server (bench/loadtarget). At low rates the server
# answers in ~100-300 µs, so whatever a generator adds of its own shows.
# The tools alternate, each rate in turn, for ROUNDS rounds (the first tool of
# each round alternates too), so that both see the same noise of a shared
# machine; each figure is the median of its rounds. Prints p50/p99 of both,
# jvmfit's own send lateness (intended to actual send), and the goal: at 200
# and 1000 req/s jvmfit's p50 and p99 are each <= 1.1x vegeta's + 20 µs.
# BASELINE=path/to/an/older/jvmfit adds it to every round, for before/after.
#   RATES="50 200 1000 5000" SECONDS_=10 ROUNDS=5 bash bench/latency.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
BASELINE=${BASELINE:-}
RATES=${RATES:-50 200 1000 5000}
SECS=${SECONDS_:-10}
ROUNDS=${ROUNDS:-5}
VEGETA_VERSION=v12.13.0
GOBIN_DIR=$PWD/bin/bench
VEGETA=$GOBIN_DIR/vegeta

command -v jq >/dev/null || { echo "bench/latency.sh: jq not installed (bash .ci/install); skipping" >&2; exit 0; }
# vegeta from the Go module proxy, once: a binary of another version is replaced.
if ! go version -m "$VEGETA" 2>/dev/null | grep -q "mod.*github.com/tsenart/vegeta/v12.*$VEGETA_VERSION"; then
  echo "bench/latency.sh: installing vegeta $VEGETA_VERSION into $GOBIN_DIR" >&2
  mkdir -p "$GOBIN_DIR"
  GOBIN=$GOBIN_DIR CGO_ENABLED=0 go install "github.com/tsenart/vegeta/v12@$VEGETA_VERSION" || {
    echo "bench/latency.sh: could not install vegeta $VEGETA_VERSION; skipping the latency benchmark" >&2; exit 0; }
fi
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
target_pid=""
cleanup() {
  # The target dies by our SIGTERM: its status is not the benchmark's.
  if [[ -n $target_pid ]]; then kill "$target_pid" 2>/dev/null || true; wait "$target_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

go build -o "$work/target" ./bench/loadtarget
"$work/target" >"$work/addr" &
target_pid=$!
for _ in $(seq 50); do [[ -s $work/addr ]] && break; sleep 0.1; done
url="http://$(cat "$work/addr")/"

# Each run appends "p50_us p99_us [lateness p50 p99 max µs]" to $work/TOOL-RATE.
# jvmfit_run RATE [NAME BINARY]
jvmfit_run() {
  local name=${2:-jvmfit} bin=${3:-$JVMFIT}
  "$bin" load --json --rate "$1" -d "${SECS}s" "$url" >"$work/out.json" 2>"$work/err" || {
    echo "bench/latency.sh: $name load failed: $(tail -1 "$work/err")" >&2; return 1; }
  jq -r '[.latencies.p50, .latencies.p99, (.send_lateness.p50 // -1000), (.send_lateness.p99 // -1000),
          (.send_lateness.max // -1000)] | map(. / 1000) | map(tostring) | join(" ")' \
    "$work/out.json" >>"$work/$name-$1"
}
base_run() { [[ -z $BASELINE ]] || jvmfit_run "$1" before "$BASELINE"; }
vegeta_run() {
  echo "GET $url" | "$VEGETA" attack -rate "$1" -duration "${SECS}s" >"$work/out.bin" 2>"$work/err" || {
    echo "bench/latency.sh: vegeta attack failed: $(tail -1 "$work/err")" >&2; return 1; }
  "$VEGETA" report -type json <"$work/out.bin" >"$work/out.json"
  # vegeta times each request from its actual send. Its own lateness, from
  # each hit's timestamp and sequence number against start + seq/rate, and
  # its latency counted as jvmfit counts it (from the intended time):
  "$VEGETA" encode --to csv <"$work/out.bin" | awk -F, -v rate="$1" -v late="$work/v-late" -v co="$work/v-co" '
    { ts = substr($1, length($1) - 12) + 0; seq[NR] = $9; t[NR] = ts; lat[NR] = $3
      if ($9 == 0) t0 = ts }
    END { for (i = 1; i <= NR; i++) { l = t[i] - (t0 + seq[i] * 1e9 / rate); if (l < 0) l = 0
            print l >late; print l + lat[i] >co } }'
  q() { sort -n "$1" | awk -v q="$2" '{ v[NR] = $1 } END { i = int(q * NR + 0.5); if (i < 1) i = 1; print v[i] / 1000 }'; }
  echo "$(jq -r '[.latencies."50th", .latencies."99th"] | map(. / 1000) | map(tostring) | join(" ")' "$work/out.json")" \
    "$(q "$work/v-late" 0.5) $(q "$work/v-late" 0.99) $(q "$work/v-late" 1) $(q "$work/v-co" 0.5) $(q "$work/v-co" 0.99)" \
    >>"$work/vegeta-$1"
}

# Warm the target (its Go runtime grows pools on first use) and the page cache.
"$JVMFIT" load --rate 1000 -d 2s "$url" >/dev/null
echo "GET $url" | "$VEGETA" attack -rate 1000 -duration 2s >/dev/null

psi_total() { awk -F'total=' '/^some/ { print $2 }' /proc/pressure/cpu 2>/dev/null; }
psi_start=$(psi_total)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
bench_start=$(date +%s.%N)
for round in $(seq "$ROUNDS"); do
  for rate in $RATES; do
    if (( round % 2 )); then base_run "$rate"; jvmfit_run "$rate"; vegeta_run "$rate"
    else vegeta_run "$rate"; jvmfit_run "$rate"; base_run "$rate"; fi
  done
  echo "round $round of $ROUNDS done" >&2
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
col() { cut -d' ' -f"$2" "$work/$1" | median; }
spread() { cut -d' ' -f"$2" "$work/$1" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'; }

psi_end=$(psi_total)
printf '\nLatency at a fixed rate against one loopback Go server, %ss runs, median of %d rounds (%s, %d CPUs)\n' \
  "$SECS" "$ROUNDS" "$(uname -r)" "$(nproc)"
# How busy the shared machine was: the share of the time some task waited
# for a CPU (PSI), and the load average.
awk -v a="$psi_start" -v b="$psi_end" -v s="$bench_start" -v e="$(date +%s.%N)" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
  -v l0="$load_start" 'BEGIN { if (a != "") printf "CPU pressure during the rounds: some task waited %.0f%% of the time\n", (b - a) / 1e4 / (e - s)
           printf "load average (1, 5, 15 min): %s at the start, %s at the end\n", l0, l }'
lat3() { awk -v a="$(col "$1" "$2")" -v b="$(col "$1" $(($2 + 1)))" -v c="$(col "$1" $(($2 + 2)))" \
  'BEGIN { if (a < 0) print "-"; else printf "%.0f / %.0f / %.0f", a, b, c }'; }
pair() { printf '%.0f / %.0f' "$(col "$1" "$2")" "$(col "$1" $(($2 + 1)))"; }
printf '%7s  %-16s %-20s  %-16s %-20s %-16s  %s\n' "" "jvmfit" "" "vegeta" "" "vegeta from" ""
printf '%7s  %-16s %-20s  %-16s %-20s %-16s  %s\n' "req/s" "p50 / p99 µs" "lateness 50/99/max" \
  "p50 / p99 µs" "lateness 50/99/max" "intended 50/99" "goal (jvmfit vs vegeta)"
for rate in $RATES; do
  goal=$(awk -v r="$rate" -v jp50="$(col "jvmfit-$rate" 1)" -v jp99="$(col "jvmfit-$rate" 2)" \
    -v vp50="$(col "vegeta-$rate" 1)" -v vp99="$(col "vegeta-$rate" 2)" -v vi99="$(col "vegeta-$rate" 7)" 'BEGIN {
    ok = jp50 <= 1.1 * vp50 + 20 && jp99 <= 1.1 * vp99 + 20
    s = sprintf("p50 %.2fx, p99 %.2fx (%.2fx of vegeta from intended)", jp50 / vp50, jp99 / vp99, jp99 / vi99)
    if (r == 200 || r == 1000) s = s (ok ? "  met" : "  NOT met"); else s = s "  (reported)"
    print s }')
  printf '%7s  %-16s %-20s  %-16s %-20s %-16s  %s\n' "$rate" "$(pair "jvmfit-$rate" 1)" "$(lat3 "jvmfit-$rate" 3)" \
    "$(pair "vegeta-$rate" 1)" "$(lat3 "vegeta-$rate" 3)" "$(pair "vegeta-$rate" 6)" "$goal"
done
echo "goal at 200 and 1000 req/s: jvmfit p50 and p99 each <= 1.1x vegeta's + 20 µs"
echo "(jvmfit counts latency from the intended send time; vegeta from its actual send, so its own"
echo " lateness, shown beside it, is not in its figures: 'vegeta from intended' adds it back)"
if [[ -n $BASELINE ]]; then
  echo "Baseline $BASELINE in the same rounds:"
  for rate in $RATES; do
    printf '%7s  %-16s %-20s\n' "$rate" "$(pair "before-$rate" 1)" "$(lat3 "before-$rate" 3)"
  done
fi
echo "Per-round spread (min-max µs, p50 / p99):"
for rate in $RATES; do
  printf '%7s  jvmfit %s / %s   vegeta %s / %s\n' "$rate" "$(spread "jvmfit-$rate" 1)" "$(spread "jvmfit-$rate" 2)" \
    "$(spread "vegeta-$rate" 1)" "$(spread "vegeta-$rate" 2)"
done
