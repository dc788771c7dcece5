#!/usr/bin/env bash
# Issue 37's benchmark: the launcher with a production profile, one read by
# `jvmfit profile --scrape` from the service's own metrics endpoint, on the
# six panel apps at 1 CPU (JDK 17), against the best anchor (the defaults,
# UBI's and run-java.sh's scripts, Paketo) and against the profile column
# from a trial (NMT), all in the same run, one app at a time through
# bench/panel.sh (MODES=default,ubi,runjava,paketo,jvmfit-profile,jvmfit-scrape).
# The apps have no metrics of their own: workloads/metrics-agent serves
# client_java's JVM metrics beside them, on loopback behind a password.
# Each app's panel file is bench/results/prodprofile-APP.json; then one
# summary, bench/results/prodprofile.json, per app:
#   APP.best_anchor_mib, APP.profile_mib (the trial's profile), APP.scrape_mib,
#   APP.scrape_to_best_anchor, APP.profile_to_best_anchor,
#   APP.scrape_under_0_9 and APP.scrape_at_or_under_profile (1 or 0),
# and the counts: apps, scrape_under_0_9, profile_under_0_9,
# scrape_at_or_under_profile, and goal (1 when the scraped profile is at
# or under 0.9x the best anchor on four of the six or more).
# Needs root (real cgroups) and make workloads; about 20 min an app on 2 cores.
#   [APPS="sort heapbound filecache threads inventory directbuf"] [RUN="sort"] bash bench/prodprofile.sh
# RUN names the apps to measure now (default: all of APPS); the others are
# summarised from their prodprofile-APP.json of an earlier run; RUN= only
# summarises. KEEP=DIR keeps each app's database and logs in DIR/APP.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

APPS=${APPS:-sort heapbound filecache threads inventory directbuf}
RUN=${RUN-$APPS}
results=${RESULTS_DIR:-bench/results}
MODES=default,ubi,runjava,paketo,jvmfit-profile,jvmfit-scrape

for app in $RUN; do
  [[ " $APPS " == *" $app "* ]] || { echo "bench/prodprofile.sh: RUN names $app, which is not in APPS ($APPS)" >&2; exit 2; }
done
for app in $RUN; do
  keep=()
  [[ -n ${KEEP:-} ]] && keep=(KEEP="$KEEP/$app")
  env "${keep[@]}" APPS="$app" CPUS=1 JDK=17 MODES=$MODES WARMUP=5s DURATION=15s \
    OUT="$results/prodprofile-$app.json" NOTE="bench/prodprofile.sh" bash bench/panel.sh
done

figures=() n=0 s09=0 p09=0 sp=0
for app in $APPS; do
  f=$results/prodprofile-$app.json
  [[ -f $f ]] || { echo "bench/prodprofile.sh: no $f: run RUN=$app bash bench/prodprofile.sh" >&2; exit 1; }
  fig() { jq -r --arg k "$app.jdk17.cpus1.$1.min_ok_mib" '.figures[$k] // 0' "$f"; }
  best=0
  for m in default ubi runjava paketo; do
    v=$(fig "$m")
    awk -v v="$v" -v b="$best" 'BEGIN { exit !(v > 0 && (b == 0 || v < b)) }' && best=$v
  done
  prof=$(fig jvmfit-profile) scr=$(fig jvmfit-scrape)
  r() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print -1 }'; }
  yes() { awk "BEGIN { print ($1) ? 1 : 0 }"; }
  under=$(yes "$scr > 0 && $best > 0 && $scr <= 0.9 * $best")
  punder=$(yes "$prof > 0 && $best > 0 && $prof <= 0.9 * $best")
  atprof=$(yes "$scr > 0 && ($prof == 0 || $scr <= $prof)")
  figures+=("$app.best_anchor_mib=$best" "$app.profile_mib=$prof" "$app.scrape_mib=$scr"
    "$app.scrape_to_best_anchor=$(r "$scr" "$best")" "$app.profile_to_best_anchor=$(r "$prof" "$best")"
    "$app.scrape_under_0_9=$under" "$app.scrape_at_or_under_profile=$atprof")
  n=$((n + 1)) s09=$((s09 + under)) p09=$((p09 + punder)) sp=$((sp + atprof))
  printf '%s: best anchor %sMi, profile from a trial %sMi (%s), scraped profile %sMi (%s)\n' \
    "$app" "$best" "$prof" "$(r "$prof" "$best")" "$scr" "$(r "$scr" "$best")"
done
goal=$((s09 >= 4 ? 1 : 0))
echo "goal: the scraped profile at or under 0.9x the best anchor on $s09 of $n (the trial's profile: $p09), at or under the trial's profile on $sp of $n: $([[ $goal == 1 ]] && echo holds || echo missed)"
write_results prodprofile.json bench/prodprofile.sh \
  "APPS=$APPS RUN=$RUN; each app's figures from bench/results/prodprofile-APP.json (bench/panel.sh CPUS=1 JDK=17 MODES=$MODES WARMUP=5s DURATION=15s, one repeat at the boundary); the goal: the scraped profile <= 0.9x the best anchor on four apps or more" \
  "${figures[@]}" "apps=$n" "scrape_under_0_9=$s09" "profile_under_0_9=$p09" "scrape_at_or_under_profile=$sp" "goal=$goal"
