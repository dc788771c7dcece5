#!/usr/bin/env bash
# tune against the expert and the launcher, measured in the same run
# (issue 24's goal), on one app at 1 CPU with its SLO:
#   1. minmem of the expert's set (bench/expert.yaml: seed 000's flags,
#      Tomcat capped at 8 threads, MALLOC_ARENA_MAX=2),
#   2. minmem of the launcher's footprint goal without a profile (--jvm
#      jvmfit:footprint),
#   3. tune --goal footprint --budget BUDGET (24) --rerun RERUNS (0): its
#      profile trial, the launcher's edge first, the other candidates tried
#      at it, the held edge, the soak through jvmfit exec --profile, then
#      RERUNS fresh reruns of the proven answer run as the soak was,
# and prints them side by side with trials and minutes, tune / expert (goal:
# tune at or under the smaller of the two minmems, and <= 0.9 of the
# expert's on half the services, in <= 24 trials and 15 minutes), planned against
# measured non-heap per region at the answer, and the load average; then
# writes bench/results/tune-APP.json (machine, date, load; RESULT=NAME.json
# names another file: bench/tune-panel.sh writes tune-edge-APP.json).
# Needs root (real cgroups). filecache ~25 min, catalog ~1 h on 2 shared cores.
#   APP=catalog [BUDGET=24] [RATE=R] [SOAK=30s] bash bench/tune.sh    KEEP=DIR keeps the database and JSON
#   LAUNCHER=0 skips the launcher's minmem; MAX_TRIALS=N caps each minmem
#   (a noisy edge on a shared machine can cost it twice the trials).
# BUDGET= (empty) lets tune scale its budget to its own estimate.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

JVMFIT=${JVMFIT:-bin/jvmfit}
APP=${APP:-filecache}
BUDGET=${BUDGET:-24}
SOAK=${SOAK:-30s}
STEP=${STEP:-8Mi}
RERUNS=${RERUNS:-0}
LAUNCHER=${LAUNCHER:-1}
MAX_TRIALS=${MAX_TRIALS:-0}
RESULT=${RESULT:-tune-$APP.json}
case $APP in
  filecache) RATE=${RATE-100} MAX=${MAX:-384Mi} GENEROUS=${GENEROUS:-512Mi} ;;
  *) RATE=${RATE-} MAX=${MAX:-768Mi} GENEROUS=${GENEROUS:-1Gi} ;;
esac
LOAD=(--cpus 1 --warmup 5s --duration 15s)
[[ -n $RATE ]] && LOAD+=(--rate "$RATE")

if [[ $(id -u) != 0 ]]; then
  echo "bench/tune.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/tune.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -f workloads/$APP/target/$APP.jar ]] || { echo "bench/tune.sh: workloads/$APP is not built; run make workloads" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
db=$work/tune.db
load0=$(cut -d' ' -f1-3 /proc/loadavg)

minmem() { # NAME, extra flags...
  local name=$1; shift
  "$JVMFIT" minmem --app "workloads/$APP/app.yaml" --db "$db" --experiment "$name" --min 64Mi --max "$MAX" \
    --step "$STEP" --repeats 1 --soak 0 --max-trials "$MAX_TRIALS" "${LOAD[@]}" --json "$@" >"$work/$name.json" 2>"$work/$name.log" || {
    echo "bench/tune.sh: minmem $name failed: $(tail -1 "$work/$name.log")" >&2; exit 1; }
}
mib() { awk -v b="$1" 'BEGIN { if (b > 0) printf "%gMi", b / 1048576; else printf "none" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
minutes() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }

echo "bench/tune.sh: minmem of the expert's set on $APP (load $load0)" >&2
t0=$(date +%s)
minmem expert --jvm set:expert --option-sets bench/expert.yaml
expert=$(jq '.modes[0].min_ok_bytes' "$work/expert.json")
expert_trials=$(jq '.modes[0].trial_count' "$work/expert.json")
t1=$(date +%s)
load1=$(cut -d' ' -f1-3 /proc/loadavg)

launcher=0 launcher_trials=0
if [[ $LAUNCHER != 0 ]]; then
  echo "bench/tune.sh: minmem of the launcher's footprint goal (no profile) on $APP (load $load1)" >&2
  minmem launcher --jvm jvmfit:footprint
  launcher=$(jq '.modes[0].min_ok_bytes' "$work/launcher.json")
  launcher_trials=$(jq '.modes[0].trial_count' "$work/launcher.json")
fi
t2=$(date +%s)
load2=$(cut -d' ' -f1-3 /proc/loadavg)

budget_flag=()
[[ -n $BUDGET ]] && budget_flag=(--budget "$BUDGET")
echo "bench/tune.sh: tune --goal footprint --rerun $RERUNS on $APP (budget ${BUDGET:-scaled}, soak $SOAK, load $load2)" >&2
"$JVMFIT" tune --app "workloads/$APP/app.yaml" --db "$db" --goal footprint "${budget_flag[@]}" --soak "$SOAK" \
  --rerun "$RERUNS" --generous "$GENEROUS" "${LOAD[@]}" --json >"$work/tune.json" 2>"$work/tune.log" || {
  echo "bench/tune.sh: tune failed: $(tail -1 "$work/tune.log")" >&2; exit 1; }
t3=$(date +%s)
load3=$(cut -d' ' -f1-3 /proc/loadavg)
tuned=$(jq '.memory_bytes' "$work/tune.json")
trials=$(jq '.trials' "$work/tune.json")
budget=$(jq '.budget' "$work/tune.json")
reruns_ok=$(jq '.reruns.ok // 0' "$work/tune.json")
reruns_run=$(jq '.reruns.runs // 0' "$work/tune.json")
profile=$(jq -r '.profile_file // empty' "$work/tune.json")

echo "$APP at 1 CPU, ${RATE:-the descriptor rate,} req/s, soak $SOAK; load average $load0 at start, $load1 / $load2 before the launcher / tune, $load3 at end:"
echo "| app | expert set (minmem) | launcher, no profile (minmem) | tune --goal footprint | tune / expert | tune / launcher | reruns proven | tune trials (budget) | minutes: expert, launcher, tune |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "| $APP | $(mib "$expert") ($expert_trials trials) | $(mib "$launcher") ($launcher_trials trials) | $(mib "$tuned") $(jq -r '"\(.verdict), \(.candidate // "")"' "$work/tune.json") | $(ratio "$tuned" "$expert") | $(ratio "$tuned" "$launcher") | $reruns_ok of $reruns_run | $trials ($budget) | $(minutes $((t1 - t0))), $(minutes $((t2 - t1))), $(minutes $((t3 - t2))) |"
echo
jq -r '.reruns.trials // [] | .[] | "rerun: \(.verdict)\(if (.kind // "") != "" then " " + .kind else "" end), p99 \((.p99_ns // 0) / 1e6 * 10 | floor / 10) ms, peak \((.peak_bytes // 0) / 1048576 * 10 | floor / 10)Mi"' "$work/tune.json"
jq -r '.notes // [] | .[] | "note: " + .' "$work/tune.json"

# Planned against measured non-heap at the answer: the launcher's plan at
# the answer's limit with the answer's profile and the candidate's options
# (what jvmfit exec gives the JVM), against that profile, region by region.
planned_nh=0 measured_nh=0 region_figures=()
if [[ -n $profile && $tuned -gt 0 ]]; then
  mapfile -t uopts < <(jq -r '.user_options[]' "$work/tune.json")
  "$JVMFIT" flags --memory "$(mib "$tuned")" --cpus 1 --goal footprint --profile "$profile" --format json -- "${uopts[@]}" \
    >"$work/plan.json" 2>/dev/null || true
  if [[ -s $work/plan.json ]]; then
    echo
    echo "Non-heap at the answer ($(mib "$tuned")): planned (jvmfit exec's plan) against measured (the profile of the answer's candidate):"
    echo "| region | planned | measured |"
    echo "|---|---|---|"
    jq -r --slurpfile p "$profile" -f /dev/stdin "$work/plan.json" <<'JQ'
def m: . / 1048576 * 10 | floor / 10 | tostring + "Mi";
def reg($n): [.regions[] | select(.name == $n) | .bytes] | add // 0;
$p[0] as $pr | . as $plan
| [["metaspace (+ class space)", reg("metaspace") + reg("class space"), $pr.metaspaceUsedBytes],
   ["code cache", reg("code cache"), $pr.codeCacheUsedBytes],
   ["CDS archive / AOT cache", reg("CDS archive"), $pr.cdsArchiveBytes],
   ["direct and mapped buffers", reg("direct memory"), (($pr.directMemoryBytes // 0) + ($pr.mappedBufferBytes // 0))],
   ["native (stacks, GC, compiler, malloc)", reg("thread stacks") + reg("GC overhead") + reg("compiler") + reg("other native"), $pr.peakUncappedNativeBytes],
   ["kernel", reg("kernel"), null]]
| (.[] | "| \(.[0]) | \(.[1] | m) | \(if .[2] == null then "not measured" else (.[2] | m) end) |"),
  "| **non-heap** | **\(map(.[1]) | add | m)** | **\(map(.[2] // 0) | add | m)** |",
  "| headroom (not non-heap) | \($plan.regions | map(select(.name == "headroom") | .bytes) | add // 0 | m) | |"
JQ
    planned_nh=$(jq '[.regions[] | select(.name != "heap" and .name != "headroom") | .bytes] | add' "$work/plan.json")
    measured_nh=$(jq '[.metaspaceUsedBytes, .codeCacheUsedBytes, .cdsArchiveBytes, .directMemoryBytes, .mappedBufferBytes, .peakUncappedNativeBytes] | map(. // 0) | add' "$profile")
    jq -r '"heap: \([.regions[] | select(.name == "heap") | .bytes] | add / 1048576)Mi; " + ([.regions[] | select(.name == "heap") | .why] | first)' "$work/plan.json"
    # The same regions into the results file, so a doc can quote them.
    mapfile -t region_figures < <(jq -r --slurpfile p "$profile" -f /dev/stdin "$work/plan.json" <<'JQ'
def m: . / 1048576 * 10 | floor / 10;
def reg($n): [.regions[] | select(.name == $n) | .bytes] | add // 0;
$p[0] as $pr
| ([["metaspace", reg("metaspace") + reg("class space"), $pr.metaspaceUsedBytes],
    ["code", reg("code cache"), $pr.codeCacheUsedBytes],
    ["cds", reg("CDS archive"), $pr.cdsArchiveBytes],
    ["direct", reg("direct memory"), (($pr.directMemoryBytes // 0) + ($pr.mappedBufferBytes // 0))],
    ["native", reg("thread stacks") + reg("GC overhead") + reg("compiler") + reg("other native"), $pr.peakUncappedNativeBytes],
    ["kernel", reg("kernel"), null]]
   | .[] | "nonheap.\(.[0]).planned_mib=\(.[1] | m)", (if .[2] == null then empty else "nonheap.\(.[0]).measured_mib=\(.[2] | m)" end)),
  "answer.heap_mib=\(reg("heap") | m)", "answer.headroom_mib=\(reg("headroom") | m)", "answer.live_mib=\($pr.liveHeapBytes // 0 | m)"
JQ
)
  fi
fi
echo
echo "Pareto front (memory × p99 × start × throttling):"
echo "| limit | candidate | p99 | start | chosen |"
echo "|---|---|---|---|---|"
jq -r '.front[] | "| \(.memory_bytes / 1048576)Mi | \(.candidate) | \(.p99_ns / 1e6 * 10 | floor / 10) ms | \(.start_seconds * 10 | floor / 10) s | \(if .chosen then "yes" else "" end) |"' "$work/tune.json"

# The figures docs/tune.md quotes, into bench/results/tune-APP.json.
l1() { cut -d' ' -f1 <<<"$1"; }
figures=("expert.min_ok_mib=$((expert / 1048576))" "expert.trials=$expert_trials" "expert.minutes=$(minutes $((t1 - t0)))")
[[ $LAUNCHER != 0 ]] && figures+=("launcher.min_ok_mib=$((launcher / 1048576))" "launcher.trials=$launcher_trials" "launcher.minutes=$(minutes $((t2 - t1)))")
figures+=("tune.answer_mib=$((tuned / 1048576))" "tune.proven=$([[ $(jq -r .verdict "$work/tune.json") == proven ]] && echo 1 || echo 0)"
  "tune.trials=$trials" "tune.budget=$budget" "tune.minutes=$(minutes $((t3 - t2)))"
  "tune.reruns_ok=$reruns_ok" "tune.reruns=$reruns_run"
  "nonheap.planned_mib=$(awk -v b="$planned_nh" 'BEGIN { printf "%.1f", b / 1048576 }')"
  "nonheap.measured_mib=$(awk -v b="$measured_nh" 'BEGIN { printf "%.1f", b / 1048576 }')"
  "load.start=$(l1 "$load0")" "load.launcher=$(l1 "$load1")" "load.tune=$(l1 "$load2")" "load.end=$(l1 "$load3")")
figures+=("${region_figures[@]}")
r=$(ratio "$tuned" "$expert"); [[ $r == n/a ]] || figures+=("tune_to_expert=$r")
r=$(ratio "$tuned" "$launcher"); [[ $r == n/a ]] || figures+=("tune_to_launcher=$r")
[[ $launcher -gt 0 ]] && figures+=("plan:$((launcher / 1048576))Mi/1/balanced=$("$JVMFIT" flags --memory "$((launcher / 1048576))Mi" --cpus 1)")
write_results "$RESULT" bench/tune.sh \
  "APP=$APP RATE=${RATE:-descriptor} BUDGET=${BUDGET:-scaled} SOAK=$SOAK STEP=$STEP RERUNS=$RERUNS GENEROUS=$GENEROUS LAUNCHER=$LAUNCHER MAX_TRIALS=$MAX_TRIALS, 1 CPU, --warmup 5s --duration 15s; minmem --min 64Mi --max $MAX --repeats 1 --soak 0 for the expert (bench/expert.yaml) and the launcher; tune --goal footprint --rerun $RERUNS" \
  "${figures[@]}"
