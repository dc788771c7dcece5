#!/usr/bin/env bash
# The `make demo` job (make builds bin/jvmfit and the workloads first).
# It sizes the file cache service of seed 001 at 1 CPU: the smallest memory
# limit for JDK defaults against jvmfit's options, then a small CPU × rate
# sweep, and writes demo-report/ (HTML + Markdown). Scaled to finish in
# about 5-10 minutes on 2 cores. Every knob below can be overridden from
# the environment, e.g. DEMO_STEP=16Mi make demo.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${DEMO_APP:-workloads/filecache/app.yaml}
OUT=${DEMO_OUT:-demo-report}
DB=$OUT/jvmfit.db
# The search: doubling from MIN, then 8 MiB bisection, one confirmation of
# each boundary limit.
MIN=${DEMO_MIN:-64Mi}
MAX=${DEMO_MAX:-512Mi}
STEP=${DEMO_STEP:-8Mi}
REPEATS=${DEMO_REPEATS:-1}
# The proof: one trial this long at the recommended limit.
SOAK=${DEMO_SOAK:-30s}
# Seed 001's scenario (workloads/filecache/scenario.yaml), scaled down: fewer
# files and workers, a 100 req/s open load, 5 s warm-up, 10 s measured.
VARS=(${DEMO_VARS:---var files=100 --var workers=10 --var warmup=5s --var duration=10s})
RATE=${DEMO_RATE:-100}
# The sweep: seed 002's matrix in miniature.
SWEEP_CPUS=${DEMO_SWEEP_CPUS:-1,2}
SWEEP_RATES=${DEMO_SWEEP_RATES:-100,300,600}
SWEEP_MEMORY=${DEMO_SWEEP_MEMORY:-512Mi}

# What `make demo` provides (.ci/install demo, the build, the workloads);
# run directly, the script names the first thing missing and stops.
jar=$(sed -n 's/^jar: *//p' "$APP" 2>/dev/null || true)
for f in "$JVMFIT" "$APP" ${jar:+"$(dirname "$APP")/$jar"}; do
  [ -e "$f" ] || { echo "demo: $f is missing; run 'make demo' (it installs and builds everything first)" >&2; exit 2; }
done
command -v java >/dev/null || { echo "demo: no java on PATH; run 'make demo' (it installs OpenJDK 17)" >&2; exit 2; }
if [ "$(id -u)" != 0 ]; then
  echo "demo: jvmfit sets real cgroup limits and needs root (or a delegated cgroup)" >&2
  exit 2
fi

rm -rf "$OUT"
mkdir -p "$OUT"
common=(--app "$APP" --db "$DB" "${VARS[@]}")
t0=$(date +%s)

echo "== 1/3 minmem: smallest memory limit at 1 CPU, JDK defaults vs jvmfit ($MIN..$MAX, step $STEP)"
"$JVMFIT" minmem "${common[@]}" --experiment demo-minmem --cpus 1 --jvm default,jvmfit --rate "$RATE" \
  --min "$MIN" --max "$MAX" --step "$STEP" --repeats "$REPEATS" --soak "$SOAK" >"$OUT/minmem.md"
t1=$(date +%s)

echo "== 2/3 sweep: CPUs $SWEEP_CPUS × rates $SWEEP_RATES at $SWEEP_MEMORY"
"$JVMFIT" sweep "${common[@]}" --experiment demo-sweep --cpus "$SWEEP_CPUS" --rate "$SWEEP_RATES" \
  --memory "$SWEEP_MEMORY" --jvm jvmfit >"$OUT/sweep.md"
t2=$(date +%s)

echo "== 3/3 report: both experiments on one page"
# index.html (charts and tables for the minmem and the sweep), report.md,
# trials.csv and trials.json, from the database.
"$JVMFIT" report --db "$DB" --experiment demo-minmem,demo-sweep -o "$OUT/"
t3=$(date +%s)

echo
echo "================ jvmfit demo: filecache at 1 CPU ================"
# The search summary and the recommendation, as minmem printed them.
sed -n '/^### The search/,$p' "$OUT/minmem.md"
echo
echo "Where the sweep breaks, per CPU count:"
sed -n '/^### Where it breaks/,/^### All trials/p' "$OUT/sweep.md" | grep -E '^[0-9.]+ CPUs?( ·|:)|^This machine' || true
echo
echo "Wall time: minmem $((t1 - t0)) s, sweep $((t2 - t1)) s, report $((t3 - t2)) s, total $((t3 - t0)) s."
echo "Report: $OUT/index.html (open it in a browser; it works offline) and $OUT/report.md, with trials.csv and trials.json."
echo "Command output: $OUT/minmem.md, $OUT/sweep.md; database: $DB; KO trials' app logs: $DB.logs/"

# The figures README.md and docs/experiments.md quote, from what minmem
# printed, into bench/results/demo.json (go test ./docs checks the docs
# against it). Sizes as minmem prints them (152Mi, 1.5Gi) become MiB.
mib() { awk '{ v = $1; u = v; sub(/[0-9.]+/, "", u); sub(/[A-Za-z]+$/, "", v)
  printf "%g", (u == "Gi" ? v * 1024 : u == "Ki" ? v / 1024 : v) }' <<<"$1"; }
minok() { awk -F'|' -v m="$1" '$3 ~ "^ *"m" *$" && $2 ~ /^ *1 *$/ { gsub(/ /, "", $4); print $4; exit }' "$OUT/minmem.md"; }
figures=()
for m in default jvmfit; do
  v=$(minok "$m")
  [[ $v == *i ]] && figures+=("minmem.$m.min_ok_mib=$(mib "$v")")
  [[ $v == *i && $m == jvmfit ]] && figures+=("plan:$v/1/balanced=$("$JVMFIT" flags --memory "$v" --cpus 1)")
done
[[ -n ${rec:=$(sed -n 's/^- \*\*Memory limit: \([0-9.]*[KMG]i\)\*\*.*/\1/p' "$OUT/minmem.md" | head -1)} ]] &&
  figures+=("plan:$rec/1/balanced=$("$JVMFIT" flags --memory "$rec" --cpus 1)")
[[ -n $rec ]] && figures+=("recommended_mib=$(mib "$rec")")
soak=$(grep -m1 '^- \*\*Proven by a soak\*\*' "$OUT/minmem.md" || true)
if [[ $soak =~ peak\ ([0-9.]+[KMG]i) ]]; then figures+=("soak.peak_mib=$(mib "${BASH_REMATCH[1]}")"); fi
if [[ $soak =~ p99\ ([0-9.]+)(µs|ms|s)[,\)] ]]; then
  figures+=("soak.p99_ms=$(awk -v v="${BASH_REMATCH[1]}" -v u="${BASH_REMATCH[2]}" 'BEGIN { printf "%g", u == "s" ? v * 1000 : u == "ms" ? v : v / 1000 }')")
fi
figures+=("minmem_seconds=$((t1 - t0))" "total_seconds=$((t3 - t0))")
write_results demo.json demo/run.sh \
  "$APP at 1 CPU, $RATE req/s, ${VARS[*]}, grid $MIN..$MAX step $STEP, $REPEATS repeat(s), soak $SOAK; sweep CPUs $SWEEP_CPUS x rates $SWEEP_RATES at $SWEEP_MEMORY" \
  "${figures[@]}"
