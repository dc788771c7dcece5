#!/usr/bin/env bash
# Seed 004's levers, each measured on a real JVM beside the JDK's defaults in
# the same run: compact object headers (JDK 25), a small compressed class
# space, fewer GC and compiler threads, and C1 only (the seed's winner).
# Each variant is one `jvmfit run --nmt --profile-out` of the app at its rate
# (NMT peaks, smaps RSS, the cgroup's peak, the live set after a full GC,
# class space used, p99, CPU time). Writes bench/results/levers.json:
# VARIANT.{rss_mib,cgroup_mib,live_mib,class_used_mib,nmt_class_mib,
# nmt_thread_mib,nmt_gc_mib,nmt_compiler_mib,nmt_total_mib,p99_ms,cpu_s,ok}
# and VARIANT.rss_ratio (against default; g1threads against g1). Needs root (real cgroups).
#   APP=workloads/sidecar/app.yaml [JAVA=...] [MEMORY=512Mi] [CPUS=2] [RATE=1000] bash bench/levers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-workloads/sidecar/app.yaml} # loadtarget: the sidecar in front of bench/loadtarget (bench/sidecarapp.sh)
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
MEMORY=${MEMORY:-512Mi}
CPUS=${CPUS:-2}
RATE=${RATE:-1000}
WARMUP=${WARMUP:-15s}
DURATION=${DURATION:-30s}
OUT=${OUT:-levers.json}

[[ -x $JAVA ]] || { echo "bench/levers.sh: $JAVA is not a java binary: give JAVA=" >&2; exit 2; }

# shellcheck source=bench/sidecarapp.sh
. bench/sidecarapp.sh
sidecar_bench levers.sh

# name|options (the JDK's defaults underneath each: one lever at a time).
# Under 1792 MiB the JDK picks Serial, which has no GC workers to cut, so
# the threads lever is measured on G1 against G1.
variants=(
  "default|"
  "coh|-XX:+UseCompactObjectHeaders"
  "ccs16|-XX:CompressedClassSpaceSize=16m"
  "g1|-XX:+UseG1GC"
  "g1threads|-XX:+UseG1GC -XX:ParallelGCThreads=1 -XX:ConcGCThreads=1 -XX:CICompilerCount=2"
  "c1|-XX:TieredStopAtLevel=1"
)
before=$(cut -d' ' -f1 /proc/loadavg)
figures=()
mib() { jq -r "(($1) // 0) / 1048576 | . * 10 | round / 10" "$2"; }
for v in "${variants[@]}"; do
  name=${v%%|*} opts=${v#*|}
  jvm=default
  [[ -n $opts ]] && jvm=$opts
  echo "bench/levers.sh: $name: $jvm at $RATE req/s, $MEMORY, $CPUS CPUs (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
  "$JVMFIT" run --app "$APP" --java "$JAVA" --jvm "$jvm" --memory "$MEMORY" --cpus "$CPUS" --rate "$RATE" \
    --warmup "$WARMUP" --duration "$DURATION" --nmt --profile-out "$work/$name.profile.json" \
    --db "$work/levers.db" --experiment "levers-$name" --json >"$work/$name.json" 2>"$work/$name.log" || true
  r=$work/$name.json
  [[ -s $r ]] || { echo "bench/levers.sh: $name gave no result: $(tail -2 "$work/$name.log")" >&2; exit 1; }
  p=$work/$name.profile.json
  [[ -s $p ]] || echo '{}' >"$p"
  figures+=(
    "$name.ok=$([[ $(jq -r .verdict "$r") == OK ]] && echo 1 || echo 0)"
    "$name.rss_mib=$(mib .summary.rss_peak "$r")"
    "$name.cgroup_mib=$(mib .memory_peak_bytes "$r")"
    "$name.live_mib=$(mib .liveHeapBytes "$p")"
    "$name.class_used_mib=$(mib .classSpaceUsedBytes "$p")"
    "$name.nmt_class_mib=$(mib '.summary.nmt_peak.Class' "$r")"
    "$name.nmt_thread_mib=$(mib '.summary.nmt_peak.Thread' "$r")"
    "$name.nmt_gc_mib=$(mib '.summary.nmt_peak.GC' "$r")"
    "$name.nmt_compiler_mib=$(mib '.summary.nmt_peak.Compiler' "$r")"
    "$name.nmt_code_mib=$(mib '.summary.nmt_peak.Code' "$r")"
    "$name.nmt_total_mib=$(mib '.summary.nmt_peak.Total' "$r")"
    "$name.threads=$(jq -r '.summary.threads_peak // 0' "$r")"
    "$name.p99_ms=$(jq -r '(.load.latencies.p99 // 0) / 1e6 | . * 100 | round / 100' "$r")"
    "$name.p999_ms=$(jq -r '(.load.latencies.p999 // 0) / 1e6 | . * 100 | round / 100' "$r")"
    "$name.cpu_s=$(jq -r '(.summary.cpu_time // 0) / 1e9 | . * 10 | round / 10' "$r")"
  )
  echo "bench/levers.sh: $name: $(jq -r '.verdict' "$r"), RSS $(mib .summary.rss_peak "$r") MiB, live $(mib .liveHeapBytes "$p") MiB, class used $(mib .classSpaceUsedBytes "$p") MiB" >&2
done
after=$(cut -d' ' -f1 /proc/loadavg)
base=$(printf '%s\n' "${figures[@]}" | sed -n 's/^default\.rss_mib=//p')
for v in "${variants[@]}"; do
  name=${v%%|*}
  rss=$(printf '%s\n' "${figures[@]}" | sed -n "s/^$name\.rss_mib=//p")
  ref=$base
  [[ $name == g1threads ]] && ref=$(printf '%s\n' "${figures[@]}" | sed -n 's/^g1\.rss_mib=//p')
  figures+=("$name.rss_ratio=$(awk -v a="$rss" -v b="$ref" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')")
done
PATH=$(dirname "$JAVA"):$PATH # the results' "jdk" is the one measured
# shellcheck source=bench/results.sh
. bench/results.sh
write_results "$OUT" bench/levers.sh \
  "jvmfit run --app $app_text --java $JAVA --memory $MEMORY --cpus $CPUS --rate $RATE --warmup $WARMUP --duration $DURATION --nmt --profile-out, one variant at a time on the JDK's defaults: $(printf '%s; ' "${variants[@]}")" \
  "${figures[@]}" "load.before=$before" "load.after=$after"
