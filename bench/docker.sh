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

# 2. start and wall time per trial, alternating, with a short load (the
#    same for both): wall minus start is the trial's work after ready.
for i in 1 2 3; do
  for kind in image jar; do
    t0=$(date +%s.%N)
    "$J" run --app bench/docker/filecache-$kind.yaml --warmup 1s --duration 2s --memory 256Mi --cpus 1 \
      --db "$out/start.db" --json 2>/dev/null >"$out/start-$kind-$i.json" || true
    t1=$(date +%s.%N)
    start=$(grep -m1 '"start_seconds"' "$out/start-$kind-$i.json" | tr -dc '0-9.')
    wall=$(echo "$t1 - $t0" | bc)
    printf '%s run %d: start %.2fs, wall %.2fs, wall-start %.2fs, load %s\n' "$kind" "$i" "$start" "$wall" "$(echo "$wall - $start" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done

# 3. the backends' own cost per trial.
go test -run '^$' -bench 'BenchmarkTrialOverhead' -benchtime 5x ./internal/docker/ | grep -E '^Benchmark'
go test -run '^$' -bench 'BenchmarkStartStop/cgroup' -benchtime 20x ./internal/sandbox/ | grep -E '^Benchmark'
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
