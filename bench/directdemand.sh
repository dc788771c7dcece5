#!/usr/bin/env bash
# directbuf's direct-memory demand (docs/launcher.md, "The firm check"):
# how much direct memory Netty's pool reserves over one trial of the
# descriptor's load, under the JDK's defaults' heap and under jvmfit's plan
# with one option removed at a time, so that an option that raised the
# demand would show. The cap is lifted (-XX:MaxDirectMemorySize=256m, after
# every set's options, so it wins) and Netty's direct arena count pinned
# (ARENAS, default 2: what Netty takes at these limits under both the
# JDK's cap and the plan's), at a roomy limit (MEMORY) so that nothing else
# fails; /stats (the JDK's direct buffer pool) is read every 250 ms and the
# peak kept. EXTRA=1 adds jvmfit's plan with 3 and 4 arenas (what a cap of
# 72 MiB or more gives Netty at 2 CPUs); ONLY="SET ..." runs those sets only.
# Writes bench/results/directdemand.json (OUT= overrides): SET.peak_min_mib,
# .peak_max_mib, .peak_mean_mib, .runs, .load1_max.
# Needs root (real cgroups); about 25 s a trial.
#   REPEATS=3 CPUS=2 bash bench/directdemand.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
JAVA=${JAVA:-$(command -v java || true)}
CPUS=${CPUS:-2}
MEMORY=${MEMORY:-256Mi}
PLAN_AT=${PLAN_AT:-136Mi}
REPEATS=${REPEATS:-3}
ARENAS=${ARENAS:-2}
EXTRA=${EXTRA:-0}
PORT=${PORT:-18381}
OUT=${OUT:-directdemand.json}

[[ $(id -u) == 0 ]] || { echo "bench/directdemand.sh: needs root to create cgroups" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench/directdemand.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
command -v curl >/dev/null || { echo "bench/directdemand.sh: curl not installed" >&2; exit 2; }
[[ -x $JAVA ]] || { echo "bench/directdemand.sh: no java at '$JAVA': set JAVA=/path/to/bin/java" >&2; exit 2; }
[[ -f workloads/directbuf/target/directbuf.jar ]] || { echo "bench/directdemand.sh: workloads/directbuf is not built; run make workloads" >&2; exit 2; }
if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "bench/directdemand.sh: port $PORT is in use: set PORT=" >&2; exit 2
fi
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit
# shellcheck source=bench/results.sh
source bench/results.sh

work=$(mktemp -d)
run_pid=
cleanup() {
  [[ -n $run_pid ]] && kill "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The descriptor at a fixed port, so that /stats can be read during the trial.
app=$work/app.yaml
sed -e "s#^jar: .*#jar: $PWD/workloads/directbuf/target/directbuf.jar#" -e "s#^port: 0#port: $PORT#" \
  -e "s#^scenario: .*#scenario: $PWD/workloads/directbuf/scenario.yaml#" workloads/directbuf/app.yaml >"$app"

# The option sets: NAME|OPTIONS. jvmfit's plan is today's at PLAN_AT.
read -r -a plan <<<"$("$JVMFIT" flags --memory "$PLAN_AT" --cpus "$CPUS")"
without() { # the plan less the options matching the pattern
  local o out=()
  for o in "${plan[@]}"; do [[ $o =~ $1 ]] || out+=("$o"); done
  echo "${out[*]}"
}
heap=$(printf '%s\n' "${plan[@]}" | sed -n 's/^-Xmx//p')
sets=(
  "defaults_xmx64m|-Xmx64m"
  "defaults_xmx$heap|-Xmx$heap"
  "jvmfit|${plan[*]}"
  "jvmfit_no_free_ratios|$(without 'HeapFreeRatio')"
  "jvmfit_no_xss|$(without '^-Xss')"
  "jvmfit_no_code_cache|$(without 'ReservedCodeCacheSize')"
  "jvmfit_no_compiler_count|$(without 'CICompilerCount')"
  "jvmfit_no_exit_on_oom|$(without 'ExitOnOutOfMemoryError')"
  "jvmfit_no_trim|$(without 'TrimNativeHeapInterval')"
  "jvmfit_no_fj_parallelism|$(without 'ForkJoinPool')"
)
extra=()
if [[ $EXTRA == 1 ]]; then
  extra=("jvmfit_arenas3|${plan[*]}|3" "jvmfit_arenas4|${plan[*]}|4")
fi
if [[ -n ${ONLY:-} ]]; then # ONLY="jvmfit jvmfit_no_trim ...": those sets only
  keep=()
  for s in "${sets[@]}" "${extra[@]}"; do
    [[ " $ONLY " == *" ${s%%|*} "* ]] && keep+=("$s")
  done
  sets=("${keep[@]}") extra=()
fi

# one_trial NAME OPTIONS ARENAS: one trial; prints the peak of the JDK's
# direct buffer pool (bytes) and the 1-minute load average at its start.
one_trial() {
  local name=$1 opts=$2 arenas=$3 stats=$work/stats load peak
  load=$(cut -d' ' -f1 /proc/loadavg)
  : >"$stats"
  "$JVMFIT" run --app "$app" --db "$work/d.db" --java "$JAVA" --memory "$MEMORY" --cpus "$CPUS" \
    --jvm "$opts -XX:MaxDirectMemorySize=256m -Dio.netty.allocator.numDirectArenas=$arenas" \
    --warmup 5s --duration 15s >"$work/$name.out" 2>"$work/$name.log" &
  run_pid=$!
  while kill -0 "$run_pid" 2>/dev/null; do
    curl -s -m 0.2 "http://127.0.0.1:$PORT/stats" >>"$stats" && echo >>"$stats" || true
    sleep 0.25
  done
  wait "$run_pid" || true
  run_pid=
  peak=$(jq -Rn '[inputs | fromjson? | .jdkDirectBytes] | max // 0' "$stats" 2>/dev/null || echo 0)
  echo "bench/directdemand.sh: $name: peak $((peak >> 20)) MiB of direct memory, load $load; $(head -1 "$work/$name.out")" >&2
  echo "$peak $load"
}

declare -A lo hi n lmax sum
for r in $(seq 1 "$REPEATS"); do
  for s in "${sets[@]}" "${extra[@]}"; do
    IFS='|' read -r name opts arenas <<<"$s"
    read -r peak load < <(one_trial "$name" "$opts" "${arenas:-$ARENAS}")
    [[ $peak -gt 0 ]] || continue
    mib=$(awk -v b="$peak" 'BEGIN { printf "%.1f", b / 1048576 }')
    if [[ -z ${lo[$name]:-} ]] || awk -v a="$mib" -v b="${lo[$name]}" 'BEGIN { exit !(a < b) }'; then lo[$name]=$mib; fi
    if [[ -z ${hi[$name]:-} ]] || awk -v a="$mib" -v b="${hi[$name]}" 'BEGIN { exit !(a > b) }'; then hi[$name]=$mib; fi
    if [[ -z ${lmax[$name]:-} ]] || awk -v a="$load" -v b="${lmax[$name]}" 'BEGIN { exit !(a > b) }'; then lmax[$name]=$load; fi
    n[$name]=$((${n[$name]:-0} + 1))
    sum[$name]=$(awk -v a="${sum[$name]:-0}" -v b="$mib" 'BEGIN { print a + b }')
  done
done

figures=()
for name in "${!n[@]}"; do
  mean=$(awk -v s="${sum[$name]}" -v n="${n[$name]}" 'BEGIN { printf "%.1f", s / n }')
  figures+=("$name.peak_min_mib=${lo[$name]}" "$name.peak_max_mib=${hi[$name]}" "$name.peak_mean_mib=$mean" "$name.runs=${n[$name]}" "$name.load1_max=${lmax[$name]}")
done
write_results "$OUT" "bench/directdemand.sh" \
  "app directbuf, $CPUS CPUs, limit $MEMORY, the descriptor's load (5 s warm-up, 15 s measured), MaxDirectMemorySize=256m and $ARENAS Netty direct arenas (3 and 4 for the extra sets), $REPEATS runs a set interleaved${ONLY:+ (sets: $ONLY)}; jvmfit's plan is today's at $PLAN_AT: ${plan[*]}; java $JAVA" \
  "${figures[@]}"
