#!/usr/bin/env bash
# Times `jvmfit flags` (whole process: detect limits, read the JDK's release
# file, plan, print) against `java -version`, the floor of any JVM launch.
# Target: jvmfit flags median ≤ 5 ms.
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
python3 - "$out/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
f, j = r["jvmfit flags"]["median"] * 1000, r["java -version"]["median"] * 1000
print(f"jvmfit flags median {f:.2f} ms (target <= 5 ms): {'OK' if f <= 5 else 'SLOW'}")
print(f"java -version median {j:.2f} ms; jvmfit flags adds {100 * f / j:.1f}% to a JVM start")
PY
