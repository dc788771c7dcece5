#!/usr/bin/env bash
# The panel (issue 21): on each small service of workloads/, each stressing
# one memory region, the smallest memory limit that passes its SLO with the
# JDK's defaults, UBI's and run-java.sh's scripts, the Paketo calculator,
# jvmfit without a profile and jvmfit with the app's own profile (measured
# by one trial under the defaults at 1 GiB, --profile-out), searched one
# minmem at a time. Prints one table per CPU count with jvmfit's ratio (no
# profile) to the best anchor, and writes every figure with the machine and
# the date to bench/results/panel-DATE.json.
# Needs root (real cgroups). Hours on 2 cores: every app × CPU count is
# 6 searches; trim with the variables below.
#   APPS="heapbound filecache" CPUS="1 2" JAVA=/path/to/java bash bench/panel.sh
# KEEP=DIR keeps the database, the minmem JSON and logs there.
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
PANEL="heapbound filecache sort inventory catalog directbuf threads vthreads"
APPS=${APPS:-$PANEL}
CPUS=${CPUS:-1 2}
STEP=${STEP:-8Mi}
MAX=${MAX:-1Gi}
REPEATS=${REPEATS:-1}
JAVA=${JAVA:-$(command -v java)}
ANCHORS=default,ubi,runjava,paketo
OUT=${OUT:-bench/results/panel-$(date -u +%Y%m%dT%H%M%SZ).json}

if [[ $(id -u) != 0 ]]; then
  echo "bench/panel.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/panel.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -x $JAVA ]] || { echo "bench/panel.sh: no java at '$JAVA': set JAVA=/path/to/bin/java" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit
jdkv=$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# minok FILE MODE: the mode's smallest passing limit in bytes (0: none).
minok() { jq -r --arg m "$2" '[.modes[] | select(.jvm == $m) | .min_ok_bytes][0] // 0' "$1"; }
mi() { if [[ $1 -gt 0 ]]; then echo "$(($1 / 1048576))Mi"; else echo none; fi; }

rows=()
for cpus in $CPUS; do
  table="$work/table-$cpus"
  printf '| app | defaults | UBI | run-java.sh | Paketo | jvmfit, no profile | jvmfit, profile | no profile / best anchor |\n|---|---|---|---|---|---|---|---|\n' >"$table"
  for a in $APPS; do
    desc=workloads/$a/app.yaml
    if [[ ! -f $desc ]]; then
      echo "bench/panel.sh: $a: no $desc (not in this tree), skipped" >&2; continue
    fi
    jar=$(awk '/^jar:/ {print $2}' "$desc")
    [[ -f workloads/$a/$jar ]] || { echo "bench/panel.sh: workloads/$a is not built; run make workloads" >&2; exit 2; }
    if [[ $a == vthreads && $jdkv -lt 21 ]]; then
      printf '| %s | virtual threads need JDK 21; this run is JDK %s |||||||\n' "$a" "$jdkv" >>"$table"; continue
    fi
    base=(--app "$desc" --db "$work/panel.db" --java "$JAVA" --cpus "$cpus")
    echo "bench/panel.sh: $a at $cpus CPU(s), JDK $jdkv: the anchors and jvmfit without a profile" >&2
    "$JVMFIT" minmem "${base[@]}" --experiment "panel-$a-$cpus" --jvm "$ANCHORS,jvmfit" \
      --min 64Mi --max "$MAX" --step "$STEP" --repeats "$REPEATS" --soak 0 --json >"$work/$a-$cpus.json" 2>"$work/$a-$cpus.log" || {
      echo "bench/panel.sh: minmem on $a failed: $(tail -1 "$work/$a-$cpus.log")" >&2; exit 1; }
    # The app's profile: one trial under the defaults at 1 GiB.
    prof="$work/$a-$cpus-profile.json"
    echo "bench/panel.sh: $a at $cpus CPU(s): its profile, then jvmfit with it" >&2
    "$JVMFIT" run "${base[@]}" --memory 1Gi --jvm default --profile-out "$prof" >"$work/$a-$cpus-profile.log" 2>&1 || true
    withp=0
    if [[ -s $prof ]]; then
      "$JVMFIT" minmem "${base[@]}" --experiment "panel-$a-$cpus-profile" --jvm jvmfit --profile "$prof" \
        --min 64Mi --max "$MAX" --step "$STEP" --repeats "$REPEATS" --soak 0 --json >"$work/$a-$cpus-p.json" 2>>"$work/$a-$cpus.log" &&
        withp=$(minok "$work/$a-$cpus-p.json" jvmfit)
    else
      echo "bench/panel.sh: $a: no profile (the trial at 1 GiB failed: $(tail -1 "$work/$a-$cpus-profile.log"))" >&2
    fi
    f="$work/$a-$cpus.json"
    best=0
    for m in default ubi runjava paketo; do
      v=$(minok "$f" "$m")
      if [[ $v -gt 0 && ($best -eq 0 || $v -lt $best) ]]; then best=$v; fi
    done
    nop=$(minok "$f" jvmfit)
    ratio=$(awk -v a="$nop" -v b="$best" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$a" "$(mi "$(minok "$f" default)")" "$(mi "$(minok "$f" ubi)")" \
      "$(mi "$(minok "$f" runjava)")" "$(mi "$(minok "$f" paketo)")" "$(mi "$nop")" "$(mi "$withp")" "$ratio" >>"$table"
    rows+=("$(jq -c --arg app "$a" --argjson cpus "$cpus" --argjson withp "$withp" --arg ratio "$ratio" \
      '{app: $app, cpus: $cpus, min_ok_bytes: ([.modes[] | {key: .jvm, value: .min_ok_bytes}] | from_entries + {"jvmfit-profile": $withp}),
        trials: ([.modes[].trial_count] | add), ratio_to_best_anchor: $ratio}' "$f")")
  done
  echo "Smallest memory limit that passes, $cpus CPU(s), JDK $jdkv (grid $STEP, $REPEATS repeat(s) at the boundary):"
  cat "$table"
  echo
done

mkdir -p "$(dirname "$OUT")"
printf '%s\n' "${rows[@]:-}" | jq -s --arg date "$(date -u +%FT%TZ)" --arg host "$(uname -n)" --arg kernel "$(uname -r)" \
  --argjson cores "$(nproc)" --arg jdk "$("$JAVA" -version 2>&1 | head -1)" --arg step "$STEP" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  --arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  '{date: $date, machine: {host: $host, kernel: $kernel, cores: $cores, load: $load}, jdk: $jdk, step: $step, commit: $commit, rows: map(select(. != null))}' >"$OUT"
echo "bench/panel.sh: results in $OUT" >&2
