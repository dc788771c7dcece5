#!/usr/bin/env bash
# What jvmfit's --goal footprint costs (issue 21): without a profile it runs
# C1 only, a smaller code cache and tighter heap free ratios, and needs
# less memory than the anchors on the panel (bench/panel.sh's footprint
# column). The price is throughput: on each app at one limit where every
# mode passes, the JDK's defaults, jvmfit (balanced) and jvmfit
# --goal footprint, run after run in turn (REPEATS rounds, so a drift of
# the machine falls on every mode alike): p99 at the descriptor's rate,
# the throughput at saturation (16 closed workers for 10 s) and the cgroup
# peak. Prints a table with footprint's median throughput as a share of
# the defaults' and of balanced's, and writes bench/results/goalcost-DATE.json.
# A fourth mode, c2full, is balanced's plan with HotSpot's own inlining
# (FreqInlineSize=325 where the plan leans C2's to 100 at <= 300 MiB), so
# what the lean inlining saves (NMT's Arena Chunk + Compiler peaks: C2's
# compile arenas; every trial runs with --nmt) and costs (throughput, p99)
# is measured against the same plan in the same rounds.
# Needs root (real cgroups); about 40 s a trial.
#   APPS="sort filecache heapbound" LIMIT=256Mi CPUS=1 REPEATS=2 bash bench/goalcost.sh
# KEEP=DIR keeps the database, each trial's JSON and logs there.
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APPS=${APPS:-sort filecache heapbound}
LIMIT=${LIMIT:-256Mi}
CPUS=${CPUS:-1}
REPEATS=${REPEATS:-2}
WARMUP=${WARMUP:-5s}
DURATION=${DURATION:-15s}
MODES="default jvmfit c2full jvmfit:footprint"
JAVA=${JAVA:-$(command -v java || true)}
OUT=${OUT:-bench/results/goalcost-$(date -u +%Y%m%dT%H%M%SZ).json}

if [[ $(id -u) != 0 ]]; then
  echo "bench/goalcost.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/goalcost.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -x $JAVA ]] || { echo "bench/goalcost.sh: no java at '$JAVA': set JAVA=/path/to/bin/java" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

work=$(mktemp -d)
trap 'if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# balanced's plan at this limit with HotSpot's own C2 inlining.
plan=$("$JVMFIT" flags --memory "$LIMIT" --cpus "$CPUS" --java "$JAVA")
c2full="${plan/-XX:FreqInlineSize=100/-XX:FreqInlineSize=325}"
[[ $plan == *FreqInlineSize=100* ]] || c2full="$plan -XX:FreqInlineSize=325"

uptime_start=$(uptime)
for a in $APPS; do
  desc=workloads/$a/app.yaml
  [[ -f $desc ]] || { echo "bench/goalcost.sh: $a: no $desc" >&2; exit 2; }
  jar=$(awk '/^jar:/ {print $2}' "$desc")
  [[ -f workloads/$a/$jar ]] || { echo "bench/goalcost.sh: workloads/$a is not built; run make workloads" >&2; exit 2; }
  for r in $(seq 1 "$REPEATS"); do
    for mode in $MODES; do
      m=${mode/:/-} jvm=$mode
      [[ $mode == c2full ]] && jvm=$c2full
      echo "bench/goalcost.sh: $a, $mode, round $r" >&2
      f="$work/$a-$m-$r.json"
      "$JVMFIT" run --app "$desc" --db "$work/goalcost.db" --java "$JAVA" --memory "$LIMIT" --cpus "$CPUS" \
        --jvm "$jvm" --warmup "$WARMUP" --duration "$DURATION" --saturate --nmt --json >"$f" 2>"$work/$a-$m-$r.log" || true
      if [[ ! -s $f ]]; then
        echo "bench/goalcost.sh: $a $mode: no result: $(tail -1 "$work/$a-$m-$r.log")" >&2; continue
      fi
      jq -c --arg app "$a" --arg mode "$m" --argjson run "$r" '{app: $app, jvm: $mode, run: $run,
        verdict: .verdict, kind: .kind, p99_ms: ((.load.latencies.p99 // 0) / 1e6),
        saturation_rps: (.saturation.throughput // 0), memory_peak_bytes: .memory_peak_bytes,
        compiler_peak_bytes: ((.summary.nmt_peak["Arena Chunk"] // 0) + (.summary.nmt_peak.Compiler // 0)),
        options: .spec.jvm_options}' "$f" >>"$work/rows.jsonl"
    done
  done
done
[[ -s $work/rows.jsonl ]] || { echo "bench/goalcost.sh: no trial gave a result" >&2; exit 1; }

# Medians per app and mode, and footprint's share of the others' throughput.
jq -s --arg date "$(date -u +%FT%TZ)" --arg host "$(uname -n)" --arg kernel "$(uname -r)" --argjson cores "$(nproc)" \
  --arg jdk "$("$JAVA" -version 2>&1 | head -1)" --arg commit "$("$JVMFIT" --version 2>/dev/null | awk '{print $NF}' || echo unknown)" \
  --arg uptime_start "$uptime_start" --arg uptime_end "$(uptime)" --arg limit "$LIMIT" --arg cpus "$CPUS" \
  --arg settings "$LIMIT, $CPUS CPU(s), each app's descriptor rate, $WARMUP warm-up, $DURATION measured, 16 closed workers for 10 s at saturation; $REPEATS round(s), modes in turn" '
  def median: sort | if length == 0 then 0 elif length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def r1: . * 10 | round / 10;
  . as $rows |
  [$rows[] | .app] | unique as $apps |
  [$apps[] as $a | ["default", "jvmfit", "c2full", "jvmfit-footprint"][] as $m |
    [$rows[] | select(.app == $a and .jvm == $m)] as $rs |
    {app: $a, jvm: $m, runs: ($rs | length), ok: ([$rs[] | select(.verdict == "OK")] | length),
     saturation_rps: ([$rs[].saturation_rps] | median), p99_ms: ([$rs[].p99_ms] | median),
     peak_mib: ([$rs[].memory_peak_bytes] | median / 1048576),
     compiler_peak_mib: ([$rs[].compiler_peak_bytes] | median / 1048576)}] as $med |
  def med($a; $m): [$med[] | select(.app == $a and .jvm == $m)][0];
  {script: "bench/goalcost.sh", date: $date,
   machine: "\($host), \($cores) cores, kernel \($kernel); \($uptime_start) at the start, \($uptime_end) at the end",
   jdk: $jdk, jvmfit: $commit, settings: $settings,
   figures: (([$med[] | {key: "\(.app).\(.jvm).saturation_rps", value: (.saturation_rps | r1)},
                        {key: "\(.app).\(.jvm).p99_ms", value: (.p99_ms | r1)},
                        {key: "\(.app).\(.jvm).peak_mib", value: (.peak_mib | r1)},
                        {key: "\(.app).\(.jvm).compiler_peak_mib", value: (.compiler_peak_mib | r1)},
                        {key: "\(.app).\(.jvm).ok_runs", value: .ok},
                        {key: "\(.app).\(.jvm).runs", value: .runs}]
             + [$apps[] as $a | med($a; "jvmfit-footprint") as $f | med($a; "default") as $d | med($a; "jvmfit") as $b | med($a; "c2full") as $c |
                (if $d.saturation_rps > 0 then {key: "\($a).balanced_to_default_rps", value: ($b.saturation_rps / $d.saturation_rps * 100 | round / 100)} else empty end),
                (if $c.saturation_rps > 0 then {key: "\($a).lean_to_c2full_rps", value: ($b.saturation_rps / $c.saturation_rps * 100 | round / 100)} else empty end),
                (if $d.saturation_rps > 0 then {key: "\($a).footprint_to_default_rps", value: ($f.saturation_rps / $d.saturation_rps * 100 | round / 100)} else empty end),
                (if $b.saturation_rps > 0 then {key: "\($a).footprint_to_balanced_rps", value: ($f.saturation_rps / $b.saturation_rps * 100 | round / 100)} else empty end)])
             | from_entries),
   plans: ([$rows[] | select(.run == 1 and (.jvm | startswith("jvmfit"))) |
     {key: "\($limit)/\($cpus)/\(if .jvm == "jvmfit" then "balanced" else "footprint" end)",
      value: (.options | map(select(startswith("-XX:NativeMemoryTracking") | not)) | join(" "))}] | from_entries),
   medians: $med, rows: $rows}' "$work/rows.jsonl" >"$work/out.json"

echo "C2's lean inlining: balanced's plan as it is and with HotSpot's own inlining (c2full), $LIMIT, $CPUS CPU(s), medians of $REPEATS round(s):"
jq -r '"| app | saturation: jvmfit, c2full | jvmfit / c2full | p99: jvmfit, c2full | NMT Arena Chunk + Compiler peak: jvmfit, c2full | cgroup peak: jvmfit, c2full | jvmfit / defaults, saturation |",
  "|---|---|---|---|---|---|---|",
  (.figures as $f | [.medians[].app] | unique[] as $a |
   "| \($a) | \($f["\($a).jvmfit.saturation_rps"]), \($f["\($a).c2full.saturation_rps"]) req/s | \($f["\($a).lean_to_c2full_rps"] // "n/a") | \($f["\($a).jvmfit.p99_ms"]), \($f["\($a).c2full.p99_ms"]) ms | \($f["\($a).jvmfit.compiler_peak_mib"]), \($f["\($a).c2full.compiler_peak_mib"]) MiB | \($f["\($a).jvmfit.peak_mib"]), \($f["\($a).c2full.peak_mib"]) MiB | \($f["\($a).balanced_to_default_rps"] // "n/a") |")' "$work/out.json"
echo
echo "Throughput at saturation and p99 at the descriptor's rate, $LIMIT, $CPUS CPU(s), medians of $REPEATS round(s):"
jq -r '"| app | defaults | jvmfit | jvmfit footprint | footprint / defaults | footprint / jvmfit | p99: defaults, jvmfit, footprint | peak: defaults, jvmfit, footprint |",
  "|---|---|---|---|---|---|---|---|",
  (.figures as $f | [.medians[].app] | unique[] as $a |
   "| \($a) | \($f["\($a).default.saturation_rps"]) req/s | \($f["\($a).jvmfit.saturation_rps"]) req/s | \($f["\($a).jvmfit-footprint.saturation_rps"]) req/s | \($f["\($a).footprint_to_default_rps"] // "n/a") | \($f["\($a).footprint_to_balanced_rps"] // "n/a") | \($f["\($a).default.p99_ms"]), \($f["\($a).jvmfit.p99_ms"]), \($f["\($a).jvmfit-footprint.p99_ms"]) ms | \($f["\($a).default.peak_mib"]), \($f["\($a).jvmfit.peak_mib"]), \($f["\($a).jvmfit-footprint.peak_mib"]) MiB |")' "$work/out.json"
mkdir -p "$(dirname "$OUT")"
cp "$work/out.json" "$OUT"
echo "bench/goalcost.sh: results in $OUT" >&2
