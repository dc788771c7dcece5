#!/usr/bin/env bash
# Seed 004's experiment as a recipe (docs/seed004.md): the memory a JVM
# sidecar proxy needs against the request rate under p99 <= 1 ms and
# p999 <= 5 ms, for four option sets: the JDK's defaults, the seed's (C1
# only), jvmfit's plan (--jvm jvmfit:footprint) and tune's answer.
#   1. saturation: one run at a roomy limit with --saturate, the JDK's
#      defaults: the highest rate served, rounded down to 100 req/s;
#   2. tune at TUNE_RATE (1000 req/s; goal footprint): its answer's options become the
#      option set "tune";
#   3. minmem at each rate of RATES and at saturation, the four sets, one
#      experiment per rate (seed004-minmem-RATE);
#   4. the goal's proof: a SOAK-long run of tune's set at TUNE_RATE at its
#      minimum there, against 0.6x the defaults' minimum;
#   5. the report of the searches (the seed's chart, with RSS and CPU per
#      cell): REPORT_DIR/index.html and report.md.
# Writes bench/results/seed004.json: saturation.rps, tune.answer_mib,
# tune.proven, rate_R.SET.min_mib (SET default, c1, jvmfit, tune; 0: nothing
# passed), rate_R.SET.rss_mib and .cpu_s (the OK trial at the minimum),
# goal.tune_to_default (at TUNE_RATE), goal.met (1 or 0), soak.ok, soak.minutes,
# load.before, load.after; the SLO, rates and tune's options in settings.
# Needs root (real cgroups).
#   [APP=workloads/sidecar/app.yaml] [RATES="100 1000 5000"] [TUNE_RATE=1000] [SLO=...] [SOAK=10m] bash bench/seed004.sh
# APP=loadtarget: the sidecar in front of bench/loadtarget (bench/sidecarapp.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-workloads/sidecar/app.yaml} # loadtarget: the sidecar in front of bench/loadtarget (bench/sidecarapp.sh)
TUNE_RATE=${TUNE_RATE:-1000}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
RATES=${RATES:-100 1000 5000}
SATURATE=${SATURATE:-1}
SLO=${SLO:-p99<=1ms,p999<=5ms,success>=0.999,throughput>=0.95*rate}
CPUS=${CPUS:-1}
MIN=${MIN:-64Mi}
MAX=${MAX:-512Mi}
STEP=${STEP:-8Mi}
WARMUP=${WARMUP:-}
DURATION=${DURATION:-}
SOAK=${SOAK:-10m}
TUNE_BUDGET=${TUNE_BUDGET:-}
DB=${DB:-}
REPORT_DIR=${REPORT_DIR:-}
OUT=${OUT:-seed004.json}

[[ -x $JAVA ]] || { echo "bench/seed004.sh: $JAVA is not a java binary: give JAVA=" >&2; exit 2; }

# shellcheck source=bench/sidecarapp.sh
. bench/sidecarapp.sh
sidecar_bench seed004.sh
# The database and the report outlive the run (the report is rebuilt from
# the database: jvmfit report --db DB -e seed004-minmem- -o DIR/).
REPORT_DIR=${REPORT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/seed004.XXXXXX")}
DB=${DB:-$REPORT_DIR/seed004.db}

phase=()
[[ -n $WARMUP ]] && phase+=(--warmup "$WARMUP")
[[ -n $DURATION ]] && phase+=(--duration "$DURATION")
common=(--app "$APP" --java "$JAVA" --slo "$SLO" --db "$DB" "${phase[@]}")
say() { echo "bench/seed004.sh: $* (load average $(cut -d' ' -f1 /proc/loadavg))" >&2; }
mib() { jq -r "(($1) // 0) / 1048576 | . * 10 | round / 10" "$2"; }

before=$(cut -d' ' -f1 /proc/loadavg)
figures=()

# 1. Saturation: the JDK's defaults at the top of the range, one CPU.
rates=($RATES)
if [[ $SATURATE == 1 ]]; then
  say "saturation: --saturate at $MAX"
  "$JVMFIT" run "${common[@]}" --jvm default --memory "$MAX" --cpus "$CPUS" --rate 100 --saturate \
    --experiment seed004-saturation --json >"$work/sat.json" 2>"$work/sat.log" || true
  sat=$(jq -r '(.saturation.throughput // 0) / 100 | floor * 100' "$work/sat.json" 2>/dev/null || echo 0)
  say "saturation: $(jq -r '.saturation.throughput // 0' "$work/sat.json" 2>/dev/null) req/s served: minmem at $sat"
  figures+=("saturation.rps=$sat")
  [[ $sat -gt 0 && " ${rates[*]} " != *" $sat "* ]] && rates+=("$sat")
fi

# 2. tune's answer at TUNE_RATE.
budget=()
[[ -n $TUNE_BUDGET ]] && budget=(--budget "$TUNE_BUDGET")
say "tune at $TUNE_RATE req/s, goal footprint"
"$JVMFIT" tune "${common[@]}" --cpus "$CPUS" --rate "$TUNE_RATE" --goal footprint --soak 1m "${budget[@]}" \
  --experiment seed004-tune --json >"$work/tune.json" 2>"$work/tune.log" || true
[[ -s $work/tune.json ]] || { echo '{}' >"$work/tune.json"; say "tune gave no answer: $(tail -1 "$work/tune.log")"; }
tune_verdict=$(jq -r '.verdict // "none"' "$work/tune.json")
tune_opts=$(jq -c 'if (.memory_bytes // 0) > 0 then .options // [] else [] end' "$work/tune.json")
figures+=("tune.answer_mib=$(mib .memory_bytes "$work/tune.json")"
  "tune.proven=$([[ $tune_verdict == proven ]] && echo 1 || echo 0)"
  "tune.trials=$(jq -r '.trials // 0' "$work/tune.json")")
say "tune: $tune_verdict, $(jq -r '(.memory_bytes // 0) / 1048576' "$work/tune.json")Mi, $tune_opts"
modes=default,set:c1,jvmfit:footprint
{
  echo "# Seed 004: the seed's C1 only, and tune's answer at $TUNE_RATE req/s"
  echo 'c1: ["-XX:TieredStopAtLevel=1"]'
  [[ $tune_opts != '[]' ]] && echo "tune: $tune_opts"
} >"$work/sets.yaml"
[[ $tune_opts != '[]' ]] && modes=$modes,set:tune

# 3. minmem at each rate.
key() { case $1 in set:c1) echo c1 ;; set:tune) echo tune ;; jvmfit:*) echo jvmfit ;; *) echo "$1" ;; esac; }
for r in "${rates[@]}"; do
  say "minmem at $r req/s: $modes"
  "$JVMFIT" minmem "${common[@]}" --cpus "$CPUS" --rate "$r" --jvm "$modes" --option-sets "$work/sets.yaml" \
    --min "$MIN" --max "$MAX" --step "$STEP" --repeats 0 --soak 0 --experiment "seed004-minmem-$r" --json \
    >"$work/minmem-$r.json" 2>"$work/minmem-$r.log" || true
  for m in default set:c1 jvmfit:footprint set:tune; do
    k=$(key "$m")
    v=$(jq -r --arg m "$m" '[.modes[]? | select(.jvm == $m) | .min_ok_bytes][0] // 0 | . / 1048576' "$work/minmem-$r.json" 2>/dev/null || echo 0)
    figures+=("rate_$r.$k.min_mib=$v")
  done
  say "minmem at $r: $(jq -r '[.modes[]? | "\(.jvm) \(.min_ok_bytes / 1048576)Mi"] | join(", ")' "$work/minmem-$r.json" 2>/dev/null)"
done

# 5 (before the soak, so an interrupted soak leaves the curve): the report,
# and each minimum's RSS and CPU from its trial.
mkdir -p "$REPORT_DIR"
"$JVMFIT" report --db "$DB" -e seed004-minmem- -o "$REPORT_DIR/" >&2 || true
if [[ -s $REPORT_DIR/trials.json ]]; then
  for r in "${rates[@]}"; do
    for m in default set:c1 jvmfit:footprint set:tune; do
      k=$(key "$m")
      ok=$(printf '%s\n' "${figures[@]}" | sed -n "s/^rate_$r\.$k\.min_mib=//p")
      [[ ${ok:-0} == 0 ]] && continue
      t=$(jq -c --arg m "$m" --argjson r "$r" --argjson b "$(awk -v v="$ok" 'BEGIN { printf "%d", v * 1048576 }')" \
        '[.[] | select(.spec.jvm == $m and .spec.rate == $r and .spec.memory_bytes == $b and .verdict == "OK" and (.spec.soak | not))] | last // {}' \
        "$REPORT_DIR/trials.json")
      figures+=("rate_$r.$k.rss_mib=$(jq -r '(.summary.rss_peak // 0) / 1048576 | . * 10 | round / 10' <<<"$t")"
        "rate_$r.$k.cpu_s=$(jq -r '(.summary.cpu_time // 0) / 1e9 | . * 10 | round / 10' <<<"$t")")
    done
  done
fi

# 4. The goal: tune's minimum at TUNE_RATE (the seed's 1000 req/s) against
# the defaults', proven by a SOAK-long run there. (TUNE_RATE must be one of
# RATES for the comparison.)
get() { printf '%s\n' "${figures[@]}" | sed -n "s/^$1=//p"; }
d=$(get "rate_$TUNE_RATE.default.min_mib") t=$(get "rate_$TUNE_RATE.tune.min_mib")
ratio=$(awk -v a="${t:-0}" -v b="${d:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print 0 }')
soak_ok=0
if [[ ${t:-0} != 0 && $SOAK != 0 ]]; then
  say "soak: set:tune at ${t}Mi, $TUNE_RATE req/s, $SOAK"
  "$JVMFIT" run "${common[@]}" --option-sets "$work/sets.yaml" --jvm set:tune --memory "${t%.*}Mi" --cpus "$CPUS" --rate "$TUNE_RATE" \
    --duration "$SOAK" --experiment seed004-soak --json >"$work/soak.json" 2>"$work/soak.log" || true
  [[ $(jq -r '.verdict // ""' "$work/soak.json" 2>/dev/null) == OK ]] && soak_ok=1
  say "soak: $(jq -r '.verdict // "no result"' "$work/soak.json" 2>/dev/null) $(jq -r '.failed // [] | join("; ")' "$work/soak.json" 2>/dev/null)"
fi
# The plan jvmfit's figure at TUNE_RATE holds for (go test ./docs checks it
# against today's flags).
plans=()
j=$(get "rate_$TUNE_RATE.jvmfit.min_mib")
jdk=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[[ ${j:-0} != 0 ]] && plans+=("plan:${j%.*}Mi/$CPUS/footprint/jdk$jdk=$("$JVMFIT" flags --java "$JAVA" --memory "${j%.*}Mi" --cpus "$CPUS" --goal footprint)")
met=$(awk -v r="$ratio" -v s="$soak_ok" 'BEGIN { print (r > 0 && r <= 0.6 && s == 1) ? 1 : 0 }')
soak_min=$(awk -v s="$SOAK" 'BEGIN { n = s + 0; if (s ~ /m$/) print n; else if (s ~ /s$/) print n / 60; else print 0 }')
after=$(cut -d' ' -f1 /proc/loadavg)
PATH=$(dirname "$JAVA"):$PATH # the results' "jdk" is the one measured
# shellcheck source=bench/results.sh
. bench/results.sh
write_results "$OUT" bench/seed004.sh \
  "app $app_text, $CPUS CPU, SLO $SLO, minmem $MIN..$MAX step $STEP (no repeats, no soak) at rates ${rates[*]} (the last is saturation when measured), modes $modes; warm-up ${WARMUP:-the scenario's}, measured ${DURATION:-the scenario's}; tune at $TUNE_RATE req/s --goal footprint ${budget[*]:-(its own budget)}: $tune_verdict, options $tune_opts; soak $SOAK at $TUNE_RATE req/s (the goal's rate)" \
  "${figures[@]}" "goal.tune_to_default=$ratio" "goal.met=$met" "soak.ok=$soak_ok" "soak.minutes=$soak_min" \
  "load.before=$before" "load.after=$after" "${plans[@]}"
echo "bench/seed004.sh: report in $REPORT_DIR (database $DB)" >&2
