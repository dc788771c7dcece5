#!/usr/bin/env bash
# minmem and tune with N = 1, 2, 4, 8 trials side by side (--parallel N),
# replayed: every machine here has 2 cores, so N real trials at once would
# measure each other. bench/parallelreplay runs the real searches (tune's
# edge first, minmem's rounds) on a simulated app, each trial taking the
# wall time a stored bench run measured (SOURCE's tune.minutes over its
# tune.trials; a trial as long as the soak takes the soak's extra length
# more), a round of trials side by side its longest; the launcher's edge
# is SOURCE's answer. It writes bench/results/parallel-replay.json: per N,
# tune's answer (and whether it is the sequential one), trials, rounds,
# wall minutes and their ratio to N = 1, at SOURCE's budget and at one
# 8 trials larger; and minmem's most rounds over every edge of a
# 64Mi-1Gi grid of 8Mi steps (no repeats). Goal: tune at N = 8 <= 0.3 of
# the sequential wall time with the same answer; minmem in <= 3 rounds.
# Seconds, no JVM.
#   [SOURCE=bench/results/tune-edge-filecache.json] bash bench/parallel.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

SOURCE=${SOURCE:-bench/results/tune-edge-filecache.json}
command -v jq >/dev/null || { echo "parallel.sh: no jq (apt-get install jq)" >&2; exit 2; }
fig() { jq -er ".figures[\"$1\"]" "$SOURCE"; }
minutes=$(fig tune.minutes) trials=$(fig tune.trials) answer=$(fig tune.answer_mib) budget=$(fig tune.budget)
soak=$(jq -r .settings "$SOURCE" | sed -n 's/.*SOAK=\([0-9]*\)s.*/\1/p')
duration=$(jq -r .settings "$SOURCE" | sed -n 's/.*--duration \([0-9]*\)s.*/\1/p')
trial_s=$(awk -v m="$minutes" -v n="$trials" 'BEGIN { printf "%.2f", m * 60 / n }')
long_s=$((soak - duration))

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/replay" ./bench/parallelreplay
"$work/replay" -trial-seconds "$trial_s" -long-seconds "$long_s" -edge-mib "$answer" -budget "$budget" >"$work/figures"
cat "$work/figures"
mapfile -t figures <"$work/figures"
write_results parallel-replay.json bench/parallel.sh \
  "replayed from $SOURCE: a trial ${trial_s}s (tune.minutes ${minutes} over ${trials} trials), +${long_s}s as long as the ${soak}s soak; launcher edge ${answer}Mi, other candidates -8..+32Mi by name; tune --goal footprint, 1 CPU, profile given, budgets ${budget} and $((budget + 8)); minmem 64Mi-1Gi, 8Mi steps, no repeats, every edge 60Mi-1030Mi by 4Mi" \
  "${figures[@]}"
echo "wrote bench/results/parallel-replay.json"
