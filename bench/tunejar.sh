#!/usr/bin/env bash
# One command from a jar to a proven answer (docs/your-service.md): the wall
# time of `jvmfit tune --jar JAR --get PATH --rate RATE` as a user runs it,
# with tune's own budget (it scales to what it estimates) and the phases of
# the scenario it generates, on a fresh database. Writes
# bench/results/tunejar.json: tune.seconds, tune.minutes, tune.answer_mib,
# tune.proven (1 or 0), tune.trials, tune.budget, load.before, load.after;
# the answer's candidate in settings. Needs root (real cgroups).
#   APP=greet-plain GET=/api/greeting RATE=100 [BUDGET=N] bash bench/tunejar.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-greet-plain}
JAR=${JAR:-workloads/$APP/target/$APP.jar}
GET=${GET:-/api/greeting}
RATE=${RATE:-100}
BUDGET=${BUDGET:-}

if [[ $(id -u) != 0 ]]; then
  echo "bench/tunejar.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/tunejar.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -f $JAR ]] || { echo "bench/tunejar.sh: $JAR is not built; run make workloads" >&2; exit 2; }
[[ -x $JVMFIT ]] || CGO_ENABLED=0 go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

budget=() budget_text="tune's own budget"
[[ -n $BUDGET ]] && budget=(--budget "$BUDGET") budget_text="--budget $BUDGET"
before=$(cut -d' ' -f1 /proc/loadavg)
echo "bench/tunejar.sh: jvmfit tune --jar $JAR --get $GET --rate $RATE ($budget_text; load average $before)" >&2
t0=$(date +%s.%N)
"$JVMFIT" tune --jar "$JAR" --get "$GET" --rate "$RATE" "${budget[@]}" --db "$work/tune.db" --json \
  >"$work/tune.json" 2> >(tee "$work/tune.log" >&2) || true
t1=$(date +%s.%N)
after=$(cut -d' ' -f1 /proc/loadavg)
[[ -s $work/tune.json ]] || { echo "bench/tunejar.sh: tune gave no result: $(tail -1 "$work/tune.log")" >&2; exit 1; }

seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
candidate=$(jq -r '.candidate // "none"' "$work/tune.json")
verdict=$(jq -r '.verdict // "none"' "$work/tune.json")
echo "bench/tunejar.sh: $verdict $(jq -r '(.memory_bytes // 0) / 1048576' "$work/tune.json")Mi, $candidate, $(jq -r .trials "$work/tune.json") trials, ${seconds}s" >&2
# shellcheck source=bench/results.sh
. bench/results.sh
write_results tunejar.json bench/tunejar.sh \
  "jvmfit tune --jar $JAR --get $GET --rate $RATE ($budget_text), tune's defaults otherwise (1 CPU, goal balanced, the generated scenario's 20 s warm-up and 30 s measured, its soak); answer: $verdict, candidate $candidate" \
  "tune.seconds=$seconds" \
  "tune.minutes=$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s / 60 }')" \
  "tune.answer_mib=$(jq '(.memory_bytes // 0) / 1048576' "$work/tune.json")" \
  "tune.proven=$([[ $verdict == proven ]] && echo 1 || echo 0)" \
  "tune.trials=$(jq '.trials // 0' "$work/tune.json")" \
  "tune.budget=$(jq '.budget // 0' "$work/tune.json")" \
  "load.before=$before" "load.after=$after"
