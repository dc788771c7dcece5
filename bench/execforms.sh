#!/usr/bin/env bash
# The exec forms (docs/launcher.md, "The exec forms table"): each way a user
# gives java options, run for real through `jvmfit exec` as the entrypoint
# of a fresh memory cgroup with the form's limit (jvmfit detects it, as in a
# container; no CPU quota), java with -XX:+PrintFlagsFinal -version. Records
# what java ended with: heap, metaspace, code cache and direct memory caps
# (-1: none, the JDK's default), the collector, and whether jvmfit warned.
# Writes bench/results/execforms.json, from which the doc's table is
# generated. Needs root (cgroups); a few seconds a form.
#   JAVA=/usr/lib/jvm/java-17-openjdk-amd64/bin/java bash bench/execforms.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JVMFIT=${JVMFIT:-bin/jvmfit}
JAVA=${JAVA:-$(command -v java)}
[[ $(id -u) == 0 ]] || { echo "bench/execforms.sh: needs root to create cgroups" >&2; exit 2; }
[[ -x $JVMFIT ]] || go build -o "$JVMFIT" ./cmd/jvmfit

# The cgroup of one form: v2 (memory.max) or v1's memory controller.
if [[ $(stat -fc %T /sys/fs/cgroup) == cgroup2fs ]]; then
  base=/sys/fs/cgroup limitfile=memory.max
else
  base=/sys/fs/cgroup/memory limitfile=memory.limit_in_bytes
fi
group=$base/jvmfit-bench-execforms-$$
# A group left by a run killed with SIGKILL is swept first.
for old in "$base"/jvmfit-bench-execforms-*; do
  [[ -d $old ]] && rmdir "$old" 2>/dev/null || true
done
work=$(mktemp -d)
cleanup() { rmdir "$group" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

bytes() { # 64Mi, 512Mi, 1Gi → bytes
  local n=${1%?i}
  case $1 in *Mi) echo $((n << 20)) ;; *Gi) echo $((n << 30)) ;; esac
}

# name|limit|environment (one VAR=value)|java options|how: java or script
forms=(
  "tool_maxram75|1Gi|JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=75||java"
  "xmx768|1Gi||-Xmx768m|java"
  "xmx350|512Mi||-Xmx350m|java"
  "xmx300|512Mi||-Xmx300m|java"
  "xmx256|512Mi||-Xmx256m|java"
  "jdk_xmx300_meta128|512Mi|JDK_JAVA_OPTIONS=-Xmx300m -XX:MaxMetaspaceSize=128m||java"
  "java_opts_script|512Mi|JAVA_OPTS=-Xmx350m -XX:+UseSerialGC||script"
  "xms400|512Mi||-Xms400m|java"
  "code_stack_direct_g1|512Mi||-XX:ReservedCodeCacheSize=32m -Xss1m -XX:MaxDirectMemorySize=64m -XX:+UseG1GC|java"
  "tool_initial90_max50|1Gi|JAVA_TOOL_OPTIONS=-XX:InitialRAMPercentage=90 -XX:MaxRAMPercentage=50||java"
  "none_64|64Mi|||java"
)

mib() { # a PrintFlagsFinal size → MiB, -1 for none (unset or unlimited)
  awk -v v="$1" 'BEGIN { if (v == "" || v + 0 >= 2^62 || v + 0 < 0) print -1; else printf "%.1f\n", v / 1048576 }'
}

figures=() plans=()
for f in "${forms[@]}"; do
  IFS='|' read -r name lim envvar opts how <<<"$f"
  mkdir "$group"
  bytes "$lim" >"$group/$limitfile"
  env=(env -i "PATH=$PATH" "HOME=$HOME")
  [[ -n $envvar ]] && env+=("$envvar")
  if [[ $how == script ]]; then
    cmd=("$JVMFIT" exec -- /bin/sh -c 'exec "$JAVA_HOME/bin/java" $JAVA_OPTS -XX:+PrintFlagsFinal -version')
    env+=("JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$JAVA")")")")
  else
    # shellcheck disable=SC2206 # the options are words
    cmd=("$JVMFIT" exec -- "$JAVA" $opts -XX:+PrintFlagsFinal -version)
  fi
  # The shell joins the group, then becomes jvmfit exec, then java.
  "${env[@]}" /bin/sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$group" "${cmd[@]}" \
    >"$work/$name.out" 2>"$work/$name.err" || { echo "bench/execforms.sh: $name: java did not start: $(tail -2 "$work/$name.err")" >&2; exit 1; }
  rmdir "$group"
  flag() { awk -v k="$1" '$2 == k && $3 == "=" { print $4 }' "$work/$name.out"; }
  meta=$(flag MaxMetaspaceSize) direct=$(flag MaxDirectMemorySize)
  [[ $direct == 0 ]] && direct=-1
  figures+=("$name.heap_mib=$(mib "$(flag MaxHeapSize)")" "$name.metaspace_mib=$(mib "$meta")"
    "$name.codecache_mib=$(mib "$(flag ReservedCodeCacheSize)")" "$name.direct_mib=$(mib "$direct")"
    "$name.serial=$([[ $(flag UseSerialGC) == true ]] && echo 1 || echo 0)"
    "$name.parallel=$([[ $(flag UseParallelGC) == true ]] && echo 1 || echo 0)"
    "$name.g1=$([[ $(flag UseG1GC) == true ]] && echo 1 || echo 0)"
    "$name.warning=$(grep -q 'jvmfit: warning:' "$work/$name.err" && echo 1 || echo 0)")
  echo "bench/execforms.sh: $name at $lim: heap $(mib "$(flag MaxHeapSize)") MiB" >&2
done
# The planner the forms ran with, as `jvmfit flags` gives it without options
# at each limit and the host's CPUs: a planner change shows there first.
for lim in 64Mi 512Mi 1Gi; do
  plans+=("plan:$lim/$(nproc)/balanced=$("$JVMFIT" flags --java "$JAVA" --memory "$lim" --cpus "$(nproc)")")
done
# shellcheck source=bench/results.sh
. bench/results.sh
write_results execforms.json bench/execforms.sh "jvmfit exec -- java ... -XX:+PrintFlagsFinal -version in a memory cgroup per form, no CPU quota; $("$JAVA" -version 2>&1 | head -1)" \
  "${figures[@]}" "${plans[@]}"
