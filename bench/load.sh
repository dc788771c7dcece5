#!/usr/bin/env bash
# Load generator CPU cost: jvmfit load against wrk, ab and hey, all driving
# the same fast loopback target. Prints CPU seconds (user+sys of the tool
# alone) per 100k requests, the request rate achieved, and the ratios.
# The tools take turns for ROUNDS rounds and each figure is the median of its
# rounds: on a shared machine one run of a tool can be 20% off the next.
#   CONC=16 REQUESTS=100000 RATE=4000 SECONDS_=5 ROUNDS=5 bash bench/load.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
CONC=${CONC:-16}
REQUESTS=${REQUESTS:-100000}
RATE=${RATE:-4000}
SECS=${SECONDS_:-5}
ROUNDS=${ROUNDS:-5}

for tool in wrk ab hey; do
  command -v "$tool" >/dev/null || { echo "bench/load.sh: $tool not installed; skipping the load benchmark" >&2; exit 0; }
done
[[ -x /usr/bin/time ]] || { echo "bench/load.sh: /usr/bin/time missing" >&2; exit 0; }
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

# run NAME COMMAND...: runs the command, records its CPU seconds.
run() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %e" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
    echo "bench/load.sh: $name failed: $(tail -1 "$work/$name.err")" >&2; return 1; }
}
# note NAME REQUESTS RATE: appends this round's CPU per 100k and rate.
note() {
  awk -v n="$2" -v r="$3" '{ c = $1 + $2; printf "%.4f %s\n", (n > 0 ? c / n * 100000 : 0), r }' \
    "$work/$1.time" >>"$work/$1.rounds"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
cpu() { cut -d' ' -f1 "$work/$1.rounds" | median; }
rate() { cut -d' ' -f2 "$work/$1.rounds" | median; }
json() { grep -m1 "\"$2\"" "$work/$1.out" | sed 's/[^0-9.]//g'; }

# Warm the target (its Go runtime grows pools on first use).
"$JVMFIT" load -c "$CONC" -n 20000 "$url" >/dev/null
threads=$(( $(nproc) < CONC ? $(nproc) : CONC ))

for round in $(seq "$ROUNDS"); do
  run jvmfit-closed "$JVMFIT" load --json -c "$CONC" -n "$REQUESTS" "$url"
  note jvmfit-closed "$(json jvmfit-closed requests)" "$(json jvmfit-closed rate)"

  run wrk wrk -t"$threads" -c"$CONC" -d"${SECS}s" "$url"
  note wrk "$(awk '/requests in/ {print $1}' "$work/wrk.out")" "$(awk '/Requests\/sec/ {print $2}' "$work/wrk.out")"

  run ab ab -q -k -c "$CONC" -n "$REQUESTS" "$url"
  note ab $(( REQUESTS - $(awk '/Failed requests/ {print $3}' "$work/ab.out") )) "$(awk '/Requests per second/ {print $4}' "$work/ab.out")"

  run hey-closed hey -n "$REQUESTS" -c "$CONC" "$url"
  note hey-closed "$(awk '/\[200\]/ {print $2}' "$work/hey-closed.out")" "$(awk '/Requests\/sec/ {print $2}' "$work/hey-closed.out")"

  # Fixed rate: the same total rate from both; hey's -q is per worker.
  run jvmfit-rate "$JVMFIT" load --json --rate "$RATE" -d "${SECS}s" "$url"
  note jvmfit-rate "$(json jvmfit-rate requests)" "$(json jvmfit-rate rate)"
  run hey-rate hey -z "${SECS}s" -c "$CONC" -q $(( RATE / CONC )) "$url"
  note hey-rate "$(awk '/\[200\]/ {print $2}' "$work/hey-rate.out")" "$(awk '/Requests\/sec/ {print $2}' "$work/hey-rate.out")"
  echo "round $round of $ROUNDS done" >&2
done

printf '\nLoad generators against one loopback target, concurrency %d, median of %d rounds (%s, %d CPUs)\n' \
  "$CONC" "$ROUNDS" "$(uname -r)" "$(nproc)"
printf '%-26s %12s %16s\n' tool "req/s" "cpu s per 100k"
row() { printf '%-26s %12.0f %16.3f\n' "$1" "$(rate "$2")" "$(cpu "$2")"; }
row "jvmfit load -c (closed)" jvmfit-closed
row "wrk -c" wrk
row "ab -k -c" ab
row "hey -c (closed)" hey-closed
row "jvmfit load --rate $RATE" jvmfit-rate
row "hey -q (rate $RATE)" hey-rate

ratio() { awk -v a="$(cpu "$1")" -v b="$(cpu "$2")" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo
echo "CPU per request, jvmfit closed / wrk:      $(ratio jvmfit-closed wrk)  (goal ≤ 1.5)"
echo "CPU per request, jvmfit closed / ab -k:    $(ratio jvmfit-closed ab)  (goal < 1)"
echo "CPU per request, jvmfit closed / hey:      $(ratio jvmfit-closed hey-closed)  (goal < 1)"
echo "CPU per request, jvmfit rate / hey -q:     $(ratio jvmfit-rate hey-rate)  (goal < 1)"
echo "Per-round figures (cpu s per 100k, req/s):"
for t in jvmfit-closed wrk ab hey-closed jvmfit-rate hey-rate; do
  printf '  %-14s %s\n' "$t" "$(tr '\n' ' ' <"$work/$t.rounds")"
done
