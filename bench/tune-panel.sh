#!/usr/bin/env bash
# tune's benchmark goal on five services of workloads/: for each, bench/tune.sh
# (the expert's set and the launcher's footprint goal through minmem, then
# tune --goal footprint --budget 24, in the same run, one app at a time),
# then one summary, bench/results/tune-panel.json, with per service:
#   APP.expert_mib, APP.launcher_mib, APP.tune_mib, APP.proven, APP.trials,
#   APP.minutes (tune's), APP.load (the load average as tune began),
#   APP.tune_to_expert, APP.tune_to_launcher, APP.tune_to_smaller (the
#   smaller of the two minmems),
#   APP.at_or_under_smaller, APP.under_0_9_expert, APP.within_limits (at most
#   24 trials and 15 minutes), 1 or 0,
# and the goal's counts: services, at_or_under_smaller, under_0_9_expert,
# within_limits, and goal (1 when every service is at or under the smaller
# minmem and within the limits, and half of them or more at or under 0.9×
# the expert's).
# Needs root (real cgroups); ~2 h on 2 shared cores (catalog and ledger are
# the slow ones).
#   [APPS="filecache sort inventory ledger catalog"] [RUN="ledger catalog"] bash bench/tune-panel.sh
# RUN names the apps to measure now (default: all of APPS); the others are
# summarised from their bench/results/tune-edge-APP.json of an earlier run.
# RUN= (empty) only summarises. KEEP=DIR keeps each run's database and logs
# in DIR/APP (bin/jvmfit report --db DIR/APP/tune.db shows every trial).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

APPS=${APPS:-filecache sort inventory ledger catalog}
RUN=${RUN-$APPS}
MAX_TRIALS=24 MAX_MINUTES=15
results=${RESULTS_DIR:-bench/results}

for app in $RUN; do
  [[ " $APPS " == *" $app "* ]] || { echo "bench/tune-panel.sh: RUN names $app, which is not in APPS ($APPS)" >&2; exit 2; }
done
for app in $RUN; do
  keep=()
  [[ -n ${KEEP:-} ]] && keep=(KEEP="$KEEP/$app")
  echo "bench/tune-panel.sh: $app (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  env "${keep[@]}" APP="$app" RESULT="tune-edge-$app.json" bash bench/tune.sh
done

figures=() plans=() sources=()
n=0 smaller_ok=0 expert_09=0 limits_ok=0
for app in $APPS; do
  f=$results/tune-edge-$app.json
  [[ -f $f ]] || { echo "bench/tune-panel.sh: no $f: run RUN=$app bash bench/tune-panel.sh" >&2; exit 1; }
  fig() { jq -r --arg k "$1" '.figures[$k] // empty' "$f"; }
  expert=$(fig expert.min_ok_mib) launcher=$(fig launcher.min_ok_mib) tuned=$(fig tune.answer_mib)
  [[ -n $expert && -n $launcher && -n $tuned ]] || {
    echo "bench/tune-panel.sh: $f lacks the expert's, the launcher's or tune's answer (a run with LAUNCHER=0?): rerun RUN=$app" >&2; exit 1; }
  sources+=("$app: $(jq -r '"jvmfit \(.jvmfit), \(.date)"' "$f")")
  trials=$(fig tune.trials) minutes=$(fig tune.minutes) proven=$(fig tune.proven)
  # A search with no passing limit writes 0: it cannot be the smaller one.
  smaller=$(awk -v a="$expert" -v b="$launcher" 'BEGIN { if (a <= 0) print b; else if (b <= 0 || a < b) print a; else print b }')
  r() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print -1 }'; }
  yes() { awk "BEGIN { print ($1) ? 1 : 0 }"; }
  under_smaller=$(yes "$tuned > 0 && $proven == 1 && $tuned <= $smaller")
  under_expert=$(yes "$tuned > 0 && $proven == 1 && $tuned <= 0.9 * $expert")
  within=$(yes "$trials <= $MAX_TRIALS && $minutes <= $MAX_MINUTES")
  figures+=("$app.expert_mib=$expert" "$app.launcher_mib=$launcher" "$app.tune_mib=$tuned" "$app.proven=$proven"
    "$app.trials=$trials" "$app.minutes=$minutes" "$app.load=$(fig load.tune)"
    "$app.tune_to_expert=$(r "$tuned" "$expert")" "$app.tune_to_launcher=$(r "$tuned" "$launcher")"
    "$app.tune_to_smaller=$(r "$tuned" "$smaller")"
    "$app.at_or_under_smaller=$under_smaller" "$app.under_0_9_expert=$under_expert" "$app.within_limits=$within")
  n=$((n + 1)) smaller_ok=$((smaller_ok + under_smaller)) expert_09=$((expert_09 + under_expert)) limits_ok=$((limits_ok + within))
  # The plans the app's file recorded, so that the summary is checked
  # against today's `jvmfit flags` as the file is.
  while IFS= read -r p; do
    [[ " ${plans[*]} " == *" plan:${p%%=*}="* ]] || plans+=("plan:$p")
  done < <(jq -r '.plans // {} | to_entries[] | "\(.key)=\(.value)"' "$f")
  printf '%s: expert %sMi, launcher %sMi, tune %sMi (%s trials, %s min): %s of the smaller, %s of the expert\n' \
    "$app" "$expert" "$launcher" "$tuned" "$trials" "$minutes" "$(r "$tuned" "$smaller")" "$(r "$tuned" "$expert")"
done
goal=$(( smaller_ok == n && limits_ok == n && 2 * expert_09 >= n ? 1 : 0 ))
figures+=("services=$n" "at_or_under_smaller=$smaller_ok" "under_0_9_expert=$expert_09" "within_limits=$limits_ok" "goal=$goal")
echo "goal: $smaller_ok of $n at or under the smaller minmem, $expert_09 of $n at or under 0.9× the expert's, $limits_ok of $n within $MAX_TRIALS trials and $MAX_MINUTES minutes: $([[ $goal == 1 ]] && echo holds || echo missed)"
write_results tune-panel.json bench/tune-panel.sh \
  "APPS=$APPS RUN=$RUN; each app's figures from bench/results/tune-edge-APP.json ($(IFS=';'; echo "${sources[*]}")) (bench/tune.sh: BUDGET=24, 1 CPU, --warmup 5s --duration 15s, soak 30s); the goal: tune proven at or under the smaller minmem, within $MAX_TRIALS trials and $MAX_MINUTES minutes, on every app, and <= 0.9x the expert's on half or more" \
  "${figures[@]}" "${plans[@]}"
