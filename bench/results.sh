# Sourced by the bench and demo scripts: writes one results file, the one
# source of the measured figures the docs quote (docs/README's "Measured
# figures"; go test ./docs checks every doc figure marked with its key).
#
#   write_results FILE SCRIPT SETTINGS key=value... plan:LIMIT/CPUS/GOAL=OPTIONS...
#
# FILE is bench/results/NAME.json (RESULTS_DIR overrides the directory);
# values are numbers. A plan: argument records the options `jvmfit flags`
# gave jvmfit's mode at that limit in this run: a jvmfit figure holds for
# that plan only, and go test ./docs fails when today's flags differ. The machine and the date are this run's, so a figure
# is never quoted without where and when it was measured.

results_machine() {
  local cg=v1 model
  [[ $(stat -fc %T /sys/fs/cgroup 2>/dev/null) == cgroup2fs ]] && cg=v2
  model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
  printf '%s CPUs (%s), kernel %s, cgroup %s, load average %s' "$(nproc)" "${model:-unknown CPU}" \
    "$(uname -r)" "$cg" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# json_string quotes a value for JSON (backslashes, quotes; no control characters expected).
json_string() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}

write_results() {
  local file=$1 script=$2 settings=$3 dir=${RESULTS_DIR:-bench/results}
  shift 3
  mkdir -p "$dir"
  local java_version
  java_version=$(java -version 2>&1 | head -1 || true)
  {
    printf '{\n  "script": %s,\n' "$(json_string "$script")"
    printf '  "date": %s,\n' "$(json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
    printf '  "machine": %s,\n' "$(json_string "$(results_machine)")"
    printf '  "jdk": %s,\n' "$(json_string "$java_version")"
    printf '  "jvmfit": %s,\n' "$(json_string "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)")"
    printf '  "settings": %s,\n' "$(json_string "$settings")"
    printf '  "figures": {'
    local sep='' kv
    for kv in "$@"; do
      [[ $kv == plan:* ]] && continue
      printf '%s\n    %s: %s' "$sep" "$(json_string "${kv%%=*}")" "${kv#*=}"
      sep=,
    done
    printf '\n  },\n  "plans": {'
    sep=''
    for kv in "$@"; do
      [[ $kv == plan:* ]] || continue
      kv=${kv#plan:}
      printf '%s\n    %s: %s' "$sep" "$(json_string "${kv%%=*}")" "$(json_string "${kv#*=}")"
      sep=,
    done
    printf '\n  }\n}\n'
  } >"$dir/$file.tmp"
  mv "$dir/$file.tmp" "$dir/$file"
  echo "results: $dir/$file" >&2
}
