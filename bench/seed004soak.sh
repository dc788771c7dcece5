#!/usr/bin/env bash
# The goal of seed 004's recipe on its own: tune's answer (the launcher's
# plan with tune's profile, through jvmfit exec, as tune soaks it) at its
# limit for SOAK at RATE, against the JDK's defaults' minimum there, read
# from bench/results/seed004.json (rate_RATE.default.min_mib). Writes
# bench/results/seed004-soak.json: soak.ok, soak.minutes, soak.limit_mib,
# soak.peak_mib, soak.rss_mib, soak.p99_ms, soak.p999_ms, soak.success,
# default_min_mib, soak_to_default, goal.met (1: OK and at most 0.6x),
# load.before, load.after. Needs root.
#   PROFILE=tune's profile.json LIMIT=40Mi [RATE=50] [SOAK=10m] [SLO=...] bash bench/seed004soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-workloads/sidecar/app.yaml} # loadtarget: the sidecar in front of bench/loadtarget (bench/sidecarapp.sh), as seed004.sh ran it
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
PROFILE=${PROFILE:?give PROFILE=tune\'s profile (DB.tune/APP-CPUs-GOAL/profile-*.json)}
LIMIT=${LIMIT:?give LIMIT=tune\'s answer, e.g. 40Mi}
RATE=${RATE:-50}
SOAK=${SOAK:-10m}
CPUS=${CPUS:-1}
GOAL=${GOAL:-footprint}
SLO=${SLO:-p99<=1ms,p999<=5ms,success>=0.999,throughput>=0.95*rate}
OUT=${OUT:-seed004-soak.json}

[[ -f $PROFILE ]] || { echo "bench/seed004soak.sh: $PROFILE not found" >&2; exit 2; }
# shellcheck source=bench/sidecarapp.sh
. bench/sidecarapp.sh
sidecar_bench seed004soak.sh

default_mib=$(jq -r --arg k "rate_$RATE.default.min_mib" '.figures[$k] // 0' bench/results/seed004.json)
before=$(cut -d' ' -f1 /proc/loadavg)
echo "bench/seed004soak.sh: jvmfit:$GOAL with tune's profile via exec at $LIMIT, $RATE req/s, $SOAK (load average $before)" >&2
"$JVMFIT" run --app "$APP" --java "$JAVA" --jvm "jvmfit:$GOAL" --profile "$PROFILE" --via-exec --memory "$LIMIT" --cpus "$CPUS" \
  --rate "$RATE" --duration "$SOAK" --slo "$SLO" --db "$work/soak.db" --experiment seed004-soak --json >"$work/soak.json" 2>"$work/soak.log" || true
r=$work/soak.json
[[ -s $r ]] || { echo "bench/seed004soak.sh: no result: $(tail -2 "$work/soak.log")" >&2; exit 1; }
after=$(cut -d' ' -f1 /proc/loadavg)
ok=$([[ $(jq -r .verdict "$r") == OK ]] && echo 1 || echo 0)
limit_mib=$(jq -r '.spec.memory_bytes / 1048576' "$r")
ratio=$(awk -v a="$limit_mib" -v b="$default_mib" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')
echo "bench/seed004soak.sh: $(jq -r '.verdict + " " + ((.failed // []) | join("; "))' "$r")" >&2
PATH=$(dirname "$JAVA"):$PATH
# shellcheck source=bench/results.sh
. bench/results.sh
write_results "$OUT" bench/seed004soak.sh \
  "jvmfit run --app $app_text --jvm jvmfit:$GOAL --profile (tune's) --via-exec --memory $LIMIT --cpus $CPUS --rate $RATE --duration $SOAK --slo $SLO; the defaults' minimum at $RATE req/s from bench/results/seed004.json" \
  "soak.ok=$ok" "soak.minutes=$(awk -v s="$SOAK" 'BEGIN { n = s + 0; if (s ~ /m$/) print n; else if (s ~ /s$/) print n / 60; else print 0 }')" \
  "soak.limit_mib=$limit_mib" \
  "soak.peak_mib=$(jq -r '.memory_peak_bytes / 1048576 | . * 10 | round / 10' "$r")" \
  "soak.rss_mib=$(jq -r '(.summary.rss_peak // 0) / 1048576 | . * 10 | round / 10' "$r")" \
  "soak.p99_ms=$(jq -r '(.load.latencies.p99 // 0) / 1e6 | . * 100 | round / 100' "$r")" \
  "soak.p999_ms=$(jq -r '(.load.latencies.p999 // 0) / 1e6 | . * 100 | round / 100' "$r")" \
  "soak.success=$(jq -r '.load.success // 0' "$r")" \
  "default_min_mib=$default_mib" "soak_to_default=$ratio" \
  "goal.met=$(awk -v r="$ratio" -v o="$ok" 'BEGIN { print (o == 1 && r > 0 && r <= 0.6) ? 1 : 0 }')" \
  "load.before=$before" "load.after=$after"
