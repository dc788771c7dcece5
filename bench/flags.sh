#!/usr/bin/env bash
# Times `jvmfit flags` (whole process: detect limits, read the JDK's release
# file, plan, print) against `java -version`, the floor of any JVM launch.
# Target: jvmfit flags median ≤ 5 ms. Writes bench/results/flags.json.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/jvmfit}
[ -x "$BIN" ] || { echo "flags.sh: $BIN missing: run make build" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "flags.sh: hyperfine not installed" >&2; exit 1; }
JAVA=${JAVA:-$(command -v java)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
hyperfine -N --warmup 20 --runs "${RUNS:-200}" --export-json "$out/h.json" \
  -n "jvmfit flags" "$BIN flags --java $JAVA" \
  -n "java -version" "$JAVA -version" >&2
read -r f j < <(python3 - "$out/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
print(round(r["jvmfit flags"]["median"] * 1000, 2), round(r["java -version"]["median"] * 1000, 2))
PY
)
pct=$(awk -v f="$f" -v j="$j" 'BEGIN { printf "%.1f", 100 * f / j }')
echo "jvmfit flags median $f ms (target <= 5 ms): $(awk -v f="$f" 'BEGIN { print (f <= 5 ? "OK" : "SLOW") }')"
echo "java -version median $j ms; jvmfit flags adds $pct% to a JVM start"
# shellcheck source=bench/results.sh
. bench/results.sh
write_results flags.json bench/flags.sh "hyperfine -N, ${RUNS:-200} runs after 20 warm-up, $BIN flags --java $JAVA" \
  flags.median_ms="$f" java_version.median_ms="$j" flags_to_java_version_pct="$pct"
