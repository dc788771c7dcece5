#!/usr/bin/env bash
# The Docker backend against plain cgroup trials (issue 16, docs/docker.md):
#  1. filecache's minmem at 1 CPU as its image (built from the host's JDK 17)
#     and as its jar on that JDK: the same descriptor but for image:/jar:;
#  2. start-to-ready and wall time per trial, image and jar alternated;
#  3. the backends' own cost per trial (Go benchmarks).
# Prints load averages with the figures: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench/out/docker}
mkdir -p "$out"
go build -o "$out/jvmfit" ./cmd/jvmfit
go test -count=1 -run TestEnsureFilecache ./internal/image/ >/dev/null # builds the image
J="$out/jvmfit"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. minmem, image and jar searched at the same time (memory decides: the
#    SLO is success only).
#    SKIP_MINMEM=1 skips it (parts 2 and 3 take a few minutes).
if [[ -z ${SKIP_MINMEM:-} ]]; then
  for kind in image jar; do
    "$J" minmem --app bench/docker/filecache-$kind.yaml --cpus 1 --jvm default \
      --min 96Mi --max 320Mi --step 8Mi --repeats 0 --soak 0 --fresh \
      --db "$out/minmem-$kind.db" --json >"$out/minmem-$kind.json" 2>"$out/minmem-$kind.log" &
  done
  wait
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  for kind in image jar; do
    echo "== minmem $kind"
    "$J" report --db "$out/minmem-$kind.db" 2>/dev/null | sed -n '1,40p'
  done
fi

# 2. per trial, image and jar alternated, with a short load (the same for
#    both): prepare = command start to the trial line (engine check, image
#    inspect, the image's JDK), start = to the first 2xx, after = end of
#    the load to exit (stop, rm, store, cleanup), and the whole wall time.
phases() {
  "$J" run --app "bench/docker/filecache-$1.yaml" --warmup 1s --duration 2s --memory 256Mi --cpus 1 \
    --db "$out/start.db" 2>&1 >/dev/null |
    while IFS= read -r l; do echo "$(date +%s.%N) $l"; done |
    awk -v t0="$(date +%s.%N)" -v kind="$1" '
      /trial /&&!p {p=$1} /ready in/ {r=$4} /^[0-9.]+ measure/ {m=$1}
      END {"date +%s.%N" | getline e; printf "%-5s prepare %.2fs  start %s  after-load %.2fs  wall %.2fs", kind, p-t0, r, e-m, e-t0}'
  echo "  load $(cut -d' ' -f1 /proc/loadavg)"
}
for ((i = 0; i < ${PHASE_RUNS:-3}; i++)); do
  phases image
  phases jar
done

# 3. the backends' own cost per trial.
go test -run '^$' -bench 'BenchmarkTrialOverhead' -benchtime 5x ./internal/docker/ | grep -E '^Benchmark'
go test -run '^$' -bench 'BenchmarkStartStop/cgroup' -benchtime 20x ./internal/sandbox/ | grep -E '^Benchmark'
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
