#!/usr/bin/env bash
# Load generator CPU cost: jvmfit load against wrk, ab and hey, all driving
# the same fast loopback target. Prints CPU seconds (user+sys of the tool
# alone) per 100k requests, the request rate achieved, and the ratios.
#   CONC=16 REQUESTS=100000 RATE=4000 SECONDS_=10 bash bench/load.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
CONC=${CONC:-16}
REQUESTS=${REQUESTS:-100000}
RATE=${RATE:-4000}
SECS=${SECONDS_:-10}

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

go build -o "$work/target" ./bench/target
"$work/target" >"$work/addr" &
target_pid=$!
for _ in $(seq 50); do [[ -s $work/addr ]] && break; sleep 0.1; done
url="http://$(cat "$work/addr")/"

# run NAME COMMAND...: records CPU seconds and wall time of the command.
run() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %e" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
    echo "bench/load.sh: $name failed: $(tail -1 "$work/$name.err")" >&2; return 1; }
}
cpu() { awk '{printf "%.3f", $1 + $2}' "$work/$1.time"; }
per100k() { awk -v c="$(cpu "$1")" -v n="$2" 'BEGIN { printf "%.2f", (n > 0 ? c / n * 100000 : 0) }'; }

# Warm the target (its JIT-free Go runtime still grows pools on first use).
"$JVMFIT" load -c "$CONC" -n 20000 "$url" >/dev/null

run jvmfit-closed "$JVMFIT" load --json -c "$CONC" -n "$REQUESTS" "$url"
jc_n=$(grep -m1 '"requests"' "$work/jvmfit-closed.out" | tr -dc 0-9)
jc_rate=$(grep -m1 '"rate"' "$work/jvmfit-closed.out" | sed 's/[^0-9.]//g')

threads=$(( $(nproc) < CONC ? $(nproc) : CONC ))
run wrk wrk -t"$threads" -c"$CONC" -d"${SECS}s" "$url"
wrk_n=$(awk '/requests in/ {print $1}' "$work/wrk.out")
wrk_rate=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.out")

run ab ab -q -k -c "$CONC" -n "$REQUESTS" "$url"
ab_n=$(( REQUESTS - $(awk '/Failed requests/ {print $3}' "$work/ab.out") ))
ab_rate=$(awk '/Requests per second/ {print $4}' "$work/ab.out")

run hey-closed hey -n "$REQUESTS" -c "$CONC" "$url"
hc_n=$(awk '/\[200\]/ {print $2}' "$work/hey-closed.out")
hc_rate=$(awk '/Requests\/sec/ {print $2}' "$work/hey-closed.out")

# Fixed rate: the same total rate from both; hey's -q is per worker.
run jvmfit-rate "$JVMFIT" load --json --rate "$RATE" -d "${SECS}s" "$url"
jr_n=$(grep -m1 '"requests"' "$work/jvmfit-rate.out" | tr -dc 0-9)
jr_rate=$(grep -m1 '"rate"' "$work/jvmfit-rate.out" | sed 's/[^0-9.]//g')
run hey-rate hey -z "${SECS}s" -c "$CONC" -q $(( RATE / CONC )) "$url"
hr_n=$(awk '/\[200\]/ {print $2}' "$work/hey-rate.out")
hr_rate=$(awk '/Requests\/sec/ {print $2}' "$work/hey-rate.out")

printf '\nLoad generators against one loopback target, concurrency %d (%s, %d CPUs)\n' "$CONC" "$(uname -r)" "$(nproc)"
printf '%-26s %10s %10s %12s %16s\n' tool requests "cpu s" "req/s" "cpu s per 100k"
row() { printf '%-26s %10s %10s %12.0f %16s\n' "$1" "$3" "$(cpu "$2")" "$4" "$(per100k "$2" "$3")"; }
row "jvmfit load -c (closed)" jvmfit-closed "$jc_n" "$jc_rate"
row "wrk -c" wrk "$wrk_n" "$wrk_rate"
row "ab -k -c" ab "$ab_n" "$ab_rate"
row "hey -c (closed)" hey-closed "$hc_n" "$hc_rate"
row "jvmfit load --rate $RATE" jvmfit-rate "$jr_n" "$jr_rate"
row "hey -q (rate $RATE)" hey-rate "$hr_n" "$hr_rate"

ratio() { awk -v a="$(per100k "$1" "$2")" -v b="$(per100k "$3" "$4")" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo
echo "CPU per request, jvmfit closed / wrk:      $(ratio jvmfit-closed "$jc_n" wrk "$wrk_n")  (goal ≤ 1.5)"
echo "CPU per request, jvmfit closed / ab -k:    $(ratio jvmfit-closed "$jc_n" ab "$ab_n")  (goal < 1)"
echo "CPU per request, jvmfit closed / hey:      $(ratio jvmfit-closed "$jc_n" hey-closed "$hc_n")  (goal < 1)"
echo "CPU per request, jvmfit rate / hey -q:     $(ratio jvmfit-rate "$jr_n" hey-rate "$hr_n")  (goal < 1)"
