#!/usr/bin/env bash
# Tune against the launcher, measured in the same run (issue 13's goal):
# on filecache at 1 CPU and 100 req/s with its SLO,
#   1. minmem of the launcher without a profile (--jvm jvmfit),
#   2. tune --goal footprint (its profile trial, candidates measured under
#      their own options, the soak through jvmfit exec --profile),
#   3. minmem of the launcher with the profile tune recommends
#      (--jvm jvmfit --profile): where the app really fails against the
#      smallest limit the launcher accepts,
#   4. RERUNS (3) fresh trials of tune's answer as recommended: through
#      jvmfit exec with its profile and the candidate's options, at the
#      answer's limit (the goal: the point passes 3 fresh reruns),
# and prints tune's limit over the launcher's (goal: at most 0.85), trials,
# wall time, the reruns' verdicts, the Pareto front and the load average.
# Needs root (real cgroups). About 20-30 minutes on 2 shared cores.
#   BUDGET=14 SOAK=30s [APP=sort RATE=20] bash bench/tune.sh      KEEP=DIR keeps the database and JSON
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-filecache}
BUDGET=${BUDGET:-14}
SOAK=${SOAK:-30s}
STEP=${STEP:-8Mi}
RATE=${RATE:-100}
RERUNS=${RERUNS:-3}
LOAD=(--cpus 1 --rate "$RATE" --warmup 5s --duration 15s)

if [[ $(id -u) != 0 ]]; then
  echo "bench/tune.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/tune.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -f workloads/$APP/target/$APP.jar ]] || { echo "bench/tune.sh: workloads/$APP is not built; run make workloads" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
# The reruns' descriptor sits beside the app's (its paths are relative).
tuned_app=workloads/$APP/.bench-tuned-$$.yaml
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work" "$tuned_app"' EXIT
trap 'exit 130' INT TERM
db=$work/tune.db
load0=$(cut -d' ' -f1-3 /proc/loadavg)

minmem() { # NAME, extra flags...
  local name=$1; shift
  "$JVMFIT" minmem --app "workloads/$APP/app.yaml" --db "$db" --experiment "$name" --min 64Mi --max 512Mi \
    --step "$STEP" --repeats 1 --soak 0 "${LOAD[@]}" --json "$@" >"$work/$name.json" 2>"$work/$name.log" || {
    echo "bench/tune.sh: minmem $name failed: $(tail -1 "$work/$name.log")" >&2; exit 1; }
}
mib() { awk -v b="$1" 'BEGIN { if (b > 0) printf "%gMi", b / 1048576; else printf "none" }'; }

echo "bench/tune.sh: minmem of the launcher (no profile) on $APP" >&2
t0=$(date +%s)
minmem launcher --jvm jvmfit
launcher=$(jq '.modes[0].min_ok_bytes' "$work/launcher.json")
launcher_trials=$(jq '.modes[0].trial_count' "$work/launcher.json")
t1=$(date +%s)

echo "bench/tune.sh: tune --goal footprint on $APP (budget $BUDGET, soak $SOAK)" >&2
"$JVMFIT" tune --app "workloads/$APP/app.yaml" --db "$db" --goal footprint --budget "$BUDGET" --soak "$SOAK" \
  --generous 512Mi "${LOAD[@]}" --json >"$work/tune.json" 2>"$work/tune.log" || {
  echo "bench/tune.sh: tune failed: $(tail -1 "$work/tune.log")" >&2; exit 1; }
t2=$(date +%s)
tuned=$(jq '.memory_bytes' "$work/tune.json")
profile=$(jq -r '.profile_file // empty' "$work/tune.json")

withprof="n/a"
if [[ -n $profile ]]; then
  echo "bench/tune.sh: minmem of the launcher with tune's profile" >&2
  minmem launcher-profile --jvm jvmfit --profile "$profile"
  withprof=$(jq -r '.modes[0] | "\(.min_ok_bytes / 1048576)Mi (highest KO \(.max_ko_bytes / 1048576)Mi, planner floor \(.planner_floor_bytes / 1048576)Mi, \(.trial_count) trials)"' "$work/launcher-profile.json")
fi

reruns="n/a"
if [[ -n $profile && $RERUNS -gt 0 ]]; then
  echo "bench/tune.sh: $RERUNS fresh reruns of tune's answer through jvmfit exec" >&2
  # The candidate's options are the user's: under --jvm jvmfit the
  # descriptor's jvm_options win over the plan, as in the answer's forms.
  opts=$(jq -c '.user_options // []' "$work/tune.json")
  sed "s|^jvm_options:.*|jvm_options: $opts|" "workloads/$APP/app.yaml" >"$tuned_app"
  reruns=""
  for i in $(seq "$RERUNS"); do
    "$JVMFIT" run --app "$tuned_app" --db "$db" --experiment "rerun-$i" --memory "$(mib "$tuned")" --jvm jvmfit \
      --profile "$profile" --via-exec "${LOAD[@]}" --json >"$work/rerun-$i.json" 2>"$work/rerun-$i.log" || true
    reruns+="$(jq -r '"\(.verdict)\(if (.kind // "") != "" then " " + .kind else "" end) (p99 \((.load.latencies.p99 // 0) / 1e6 * 10 | floor / 10) ms, peak \(.memory_peak_bytes / 1048576 * 10 | floor / 10)Mi)"' "$work/rerun-$i.json" 2>/dev/null || echo "error: $(tail -1 "$work/rerun-$i.log")"); "
  done
fi

ratio=$(awk -v a="$tuned" -v b="$launcher" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }')
# The lowest limit any candidate passed at. footprint answers it unless its
# soak failed there (the soak then raises the limit a grid step); the other
# goals may sit above it when their cost prefers a lower p99.
lowest=$(jq '[.front[].memory_bytes] | min // 0' "$work/tune.json")
echo "$APP at 1 CPU, $RATE req/s (load average at start $load0, at end $(cut -d' ' -f1-3 /proc/loadavg)):"
echo "| launcher minmem (no profile) | tune --goal footprint | tune / launcher (goal <= 0.85) | tune's lowest OK | tune verdict, candidate | tune trials | tune wall | launcher minmem with tune's profile |"
echo "|---|---|---|---|---|---|---|---|"
echo "| $(mib "$launcher") ($launcher_trials trials, $((t1 - t0)) s) | $(mib "$tuned") | $ratio | $(mib "$lowest") | $(jq -r '"\(.verdict), \(.candidate)"' "$work/tune.json") | $(jq '.trials' "$work/tune.json") of $BUDGET | $((t2 - t1)) s | $withprof |"
echo
echo "Fresh reruns of tune's answer ($(mib "$tuned"), through jvmfit exec --profile): $reruns"
echo
echo "Pareto front (memory × p99 × start × throttling):"
echo "| limit | candidate | p99 | start | chosen |"
echo "|---|---|---|---|---|"
jq -r '.front[] | "| \(.memory_bytes / 1048576)Mi | \(.candidate) | \(.p99_ns / 1e6 * 10 | floor / 10) ms | \(.start_seconds * 10 | floor / 10) s | \(if .chosen then "yes" else "" end) |"' "$work/tune.json"
# The figures docs/tune.md quotes, into bench/results/tune-APP.json.
figures=("launcher.min_ok_mib=$((launcher / 1048576))" "tune.answer_mib=$((tuned / 1048576))" "tune.lowest_ok_mib=$((lowest / 1048576))"
  "tune.trials=$(jq '.trials' "$work/tune.json")" "tune.wall_seconds=$((t2 - t1))")
[[ $ratio == n/a ]] || figures+=("tune_to_launcher=$ratio")
[[ $launcher -gt 0 ]] && figures+=("plan:$((launcher / 1048576))Mi/1/balanced=$("$JVMFIT" flags --memory "$((launcher / 1048576))Mi" --cpus 1)")
write_results "tune-$APP.json" bench/tune.sh \
  "APP=$APP RATE=$RATE BUDGET=$BUDGET SOAK=$SOAK STEP=$STEP, 1 CPU, --warmup 5s --duration 15s, tune --goal footprint" \
  "${figures[@]}"
