#!/usr/bin/env bash
# Seed 004's compact profile, today: a runtime linked with jlink from only
# the modules the app uses (as jdeps finds them), against the whole JDK it
# was linked from. Measures each runtime's image size (du, bytes on disk)
# and the app's footprint on it: one `jvmfit run --nmt` per runtime at the
# same limit, rate and options (RSS and cgroup peaks, NMT total, p99, CPU).
# The seed's expectation: a smaller image, the same footprint. Writes
# bench/results/jlink.json: modules (count), jdk.image_mib, jlink.image_mib,
# image_ratio, {jdk,jlink}.{rss_mib,cgroup_mib,nmt_total_mib,p99_ms,cpu_s,ok},
# rss_ratio, cgroup_ratio; the module list in settings. Needs root.
#   APP=workloads/sidecar/app.yaml JAR=workloads/sidecar/target/sidecar.jar bash bench/jlink.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
APP=${APP:-workloads/sidecar/app.yaml} # loadtarget: the sidecar in front of bench/loadtarget (bench/sidecarapp.sh)
JAR=${JAR:-workloads/sidecar/target/sidecar.jar}
MEMORY=${MEMORY:-256Mi}
CPUS=${CPUS:-1}
RATE=${RATE:-1000}
JVM=${JVM:-default}
WARMUP=${WARMUP:-15s}
DURATION=${DURATION:-30s}
OUT=${OUT:-jlink.json}

[[ -f $JAR ]] || { echo "bench/jlink.sh: $JAR is not built; run make workloads" >&2; exit 2; }
[[ -x $JDK/bin/jlink && -x $JDK/bin/jdeps ]] || { echo "bench/jlink.sh: $JDK has no jlink or jdeps: give JDK=" >&2; exit 2; }

# shellcheck source=bench/sidecarapp.sh
. bench/sidecarapp.sh
sidecar_bench jlink.sh

feature=$("$JDK/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
# jdeps on the app's jar and its libraries: the modules of the JDK their
# classes use.
# A missing optional dependency of a library (Netty's compression codecs,
# its native transports) is left out, as the app never loads it.
# The jar's Class-Path libraries (lib/ beside it) are read with it.
cp=()
[[ -d $(dirname "$JAR")/lib ]] && cp=(--class-path "$(dirname "$JAR")/lib/*")
mods=$("$JDK/bin/jdeps" --ignore-missing-deps --multi-release "$feature" --print-module-deps --recursive "${cp[@]}" "$JAR")
# jdk.unsupported (sun.misc.Unsafe) is what Netty's fast paths reflect on,
# which jdeps cannot see through reflection; jdk.crypto.ec would be TLS's.
[[ ,$mods, == *,jdk.unsupported,* ]] || mods=$mods,jdk.unsupported
echo "bench/jlink.sh: jdeps: $mods" >&2
"$JDK/bin/jlink" --add-modules "$mods" --strip-debug --no-header-files --no-man-pages --output "$work/rt" >&2
"$work/rt/bin/java" -version >&2

mib_of() { du -sb "$1" | awk '{ printf "%.1f", $1 / 1048576 }'; }
jdk_mib=$(mib_of "$JDK") jlink_mib=$(mib_of "$work/rt")
echo "bench/jlink.sh: image $jlink_mib MiB against the JDK's $jdk_mib MiB" >&2

before=$(cut -d' ' -f1 /proc/loadavg)
figures=()
mib() { jq -r "(($1) // 0) / 1048576 | . * 10 | round / 10" "$2"; }
for rt in jdk jlink; do
  java=$JDK/bin/java
  [[ $rt == jlink ]] && java=$work/rt/bin/java
  echo "bench/jlink.sh: $rt: $java, $MEMORY, $CPUS CPU, $RATE req/s, --jvm $JVM (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
  "$JVMFIT" run --app "$APP" --java "$java" --jvm "$JVM" --memory "$MEMORY" --cpus "$CPUS" --rate "$RATE" \
    --warmup "$WARMUP" --duration "$DURATION" --nmt --db "$work/jlink.db" --experiment "jlink-$rt" --json \
    >"$work/$rt.json" 2>"$work/$rt.log" || true
  r=$work/$rt.json
  [[ -s $r ]] || { echo "bench/jlink.sh: $rt gave no result: $(tail -2 "$work/$rt.log")" >&2; exit 1; }
  figures+=(
    "$rt.ok=$([[ $(jq -r .verdict "$r") == OK ]] && echo 1 || echo 0)"
    "$rt.rss_mib=$(mib .summary.rss_peak "$r")"
    "$rt.cgroup_mib=$(mib .memory_peak_bytes "$r")"
    "$rt.nmt_total_mib=$(mib '.summary.nmt_peak.Total' "$r")"
    "$rt.p99_ms=$(jq -r '(.load.latencies.p99 // 0) / 1e6 | . * 100 | round / 100' "$r")"
    "$rt.cpu_s=$(jq -r '(.summary.cpu_time // 0) / 1e9 | . * 10 | round / 10' "$r")"
  )
  echo "bench/jlink.sh: $rt: $(jq -r .verdict "$r"), RSS $(mib .summary.rss_peak "$r") MiB, cgroup $(mib .memory_peak_bytes "$r") MiB" >&2
done
after=$(cut -d' ' -f1 /proc/loadavg)
get() { printf '%s\n' "${figures[@]}" | sed -n "s/^$1=//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }'; }
PATH=$JDK/bin:$PATH # the results' "jdk" is the one measured
# shellcheck source=bench/results.sh
. bench/results.sh
write_results "$OUT" bench/jlink.sh \
  "jdeps --print-module-deps $JAR: $mods; jlink --strip-debug --no-header-files --no-man-pages from $JDK; then jvmfit run --app $app_text --jvm $JVM --memory $MEMORY --cpus $CPUS --rate $RATE --warmup $WARMUP --duration $DURATION --nmt on each runtime" \
  "modules=$(tr ',' '\n' <<<"$mods" | wc -l)" "jdk.image_mib=$jdk_mib" "jlink.image_mib=$jlink_mib" \
  "image_ratio=$(ratio "$jlink_mib" "$jdk_mib")" "${figures[@]}" \
  "rss_ratio=$(ratio "$(get jlink.rss_mib)" "$(get jdk.rss_mib)")" \
  "cgroup_ratio=$(ratio "$(get jlink.cgroup_mib)" "$(get jdk.cgroup_mib)")" \
  "load.before=$before" "load.after=$after"
