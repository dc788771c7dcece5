#!/usr/bin/env bash
# From a jar to a first OK trial, as a new user does it (docs/your-service.md,
# "Measured here"): for each sample service of workloads/ (one per framework),
# `jvmfit init --jar JAR --get PATH`, then the `jvmfit run` init suggests,
# with the files as written (nothing edited), then one run at a tiny limit,
# which must be KO. Writes bench/results/init.json (keys APP.FIELD):
#   detected      1 when init named the expected framework
#   guess_lines   lines init marked # GUESS: (the lines the user must write)
#   init_s        init's wall time (detection, files, the check's start and load)
#   ready_s, check_peak_mib   the check's start to ready, its cgroup peak
#   suggested_mib the limit of the run init suggests (`next:`)
#   suggested_ok  1 when that run, with the written SLO and phases, was OK
#   first_ok_s    from the start of init to the end of the first OK trial
#                 (the suggested run, else one at GENEROUS with no CPU quota; -1: none)
#   tiny_ko       1 when the run at TINY was KO
#   load1         the 1-minute load average before the app's init
# Needs root (real cgroups) and the sample jars (make workloads).
#   APPS="greet-plain greet-spring" bash bench/init.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
APPS=${APPS:-greet-spring greet-quarkus greet-micronaut greet-helidon greet-plain}
GET=${GET:-/api/greeting?name=jvmfit}
TINY=${TINY:-16Mi}
GENEROUS=${GENEROUS:-1Gi}
# The JDK a new user here has: Helidon's jar (Java 21 classes) makes init pick Temurin 25.
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}

if [[ $(id -u) != 0 ]]; then
  echo "bench/init.sh: needs root to create cgroups: run make bench as root" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "bench/init.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
[[ -x $JVMFIT ]] || CGO_ENABLED=0 go build -o "$JVMFIT" ./cmd/jvmfit

declare -A jars=(
  [greet-spring]=workloads/greet-spring/target/greet-spring.jar
  [greet-quarkus]=workloads/greet-quarkus/target/quarkus-app/quarkus-run.jar
  [greet-micronaut]=workloads/greet-micronaut/target/greet-micronaut.jar
  [greet-helidon]=workloads/greet-helidon/target/greet-helidon.jar
  [greet-plain]=workloads/greet-plain/target/greet-plain.jar
)
declare -A frameworks=(
  [greet-spring]="Spring Boot" [greet-quarkus]=Quarkus [greet-micronaut]=Micronaut
  [greet-helidon]=Helidon [greet-plain]="a plain main class"
)
for app in $APPS; do
  [[ -n ${jars[$app]:-} ]] || { echo "bench/init.sh: unknown app $app (one of ${!jars[*]})" >&2; exit 2; }
  [[ -f ${jars[$app]} ]] || { echo "bench/init.sh: ${jars[$app]} is not built; run make workloads" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
mib() { # "70.6Mi" or "1Gi" -> MiB
  awk -v s="$1" 'BEGIN { n = s + 0; if (s ~ /Gi$/) n *= 1024; printf "%.1f", n }'
}

figures=() detected_lines=()
for app in $APPS; do
  dir=$work/$app
  mkdir -p "$dir"
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "bench/init.sh: $app (load average $load)" >&2
  figures+=("$app.load1=$load")
  t0=$(now)
  rc=0
  JAVA_HOME=$JDK17 "$JVMFIT" init --jar "${jars[$app]}" --get "$GET" --out "$dir" >"$dir/init.out" 2>"$dir/init.err" || rc=$?
  t1=$(now)
  cat "$dir/init.out" >&2
  if [[ $rc != 0 ]]; then
    echo "bench/init.sh: $app: init exit $rc: $(tail -1 "$dir/init.err")" >&2
    figures+=("$app.detected=0" "$app.first_ok_s=-1")
    continue
  fi
  first=$(head -1 "$dir/init.out")
  detected_lines+=("$first")
  figures+=("$app.detected=$([[ $first == *"${frameworks[$app]}"* ]] && echo 1 || echo 0)"
    "$app.guess_lines=$(cat "$dir/app.yaml" "$dir/scenario.yaml" | grep -c '# GUESS:' || true)"
    "$app.init_s=$(secs "$t0" "$t1")")
  check=$(grep -m1 'check:' "$dir/init.out" || true)
  if [[ $check =~ ready\ in\ ([0-9.]+)s,\ cgroup\ peak\ ([0-9.]+[MG]i) ]]; then
    figures+=("$app.ready_s=${BASH_REMATCH[1]}" "$app.check_peak_mib=$(mib "${BASH_REMATCH[2]}")")
  fi
  suggested=$(sed -n 's/.*next: *jvmfit run --app [^ ]* --memory \([0-9]*[MG]i\).*/\1/p' "$dir/init.out" | head -1)
  first_ok=-1 ok=0
  if [[ -n $suggested ]]; then
    figures+=("$app.suggested_mib=$(mib "$suggested")")
    "$JVMFIT" run --app "$dir/app.yaml" --memory "$suggested" --db "$dir/x.db" --json >"$dir/run.json" 2>"$dir/run.err" || true
    t2=$(now)
    if [[ $(jq -r '.verdict // empty' "$dir/run.json" 2>/dev/null) == OK ]]; then
      ok=1 first_ok=$(secs "$t0" "$t2")
    else
      echo "bench/init.sh: $app at $suggested: $(jq -r '"\(.verdict) \(.reason // .kind // "")"' "$dir/run.json" 2>/dev/null || tail -1 "$dir/run.err")" >&2
    fi
  fi
  figures+=("$app.suggested_ok=$ok")
  if [[ $ok == 0 ]]; then
    "$JVMFIT" run --app "$dir/app.yaml" --memory "$GENEROUS" --cpus 0 --db "$dir/x.db" --json >"$dir/gen.json" 2>"$dir/gen.err" || true
    t2=$(now)
    [[ $(jq -r '.verdict // empty' "$dir/gen.json" 2>/dev/null) == OK ]] && first_ok=$(secs "$t0" "$t2")
  fi
  figures+=("$app.first_ok_s=$first_ok")
  "$JVMFIT" run --app "$dir/app.yaml" --memory "$TINY" --warmup 2s --duration 3s --db "$dir/x.db" --json >"$dir/tiny.json" 2>"$dir/tiny.err" || true
  tiny=$(jq -r '.verdict // empty' "$dir/tiny.json" 2>/dev/null || true)
  echo "bench/init.sh: $app: first OK after ${first_ok}s (suggested $suggested: ok=$ok); at $TINY: ${tiny:-no result}" >&2
  figures+=("$app.tiny_ko=$([[ -n $tiny && $tiny != OK ]] && echo 1 || echo 0)")
done

detected=$(printf '%s; ' "${detected_lines[@]}")
# shellcheck source=bench/results.sh
. bench/results.sh
write_results init.json bench/init.sh \
  "APPS=$APPS, JAVA_HOME=$JDK17; jvmfit init --jar JAR --get '$GET' (defaults: 50 req/s, the default SLO, 20 s warm-up, 30 s measured), then the run its next: line suggests (default 1 CPU), else one at $GENEROUS with no CPU quota; then a run at $TINY (2 s + 3 s). Detected: ${detected%; }" \
  "${figures[@]}"
