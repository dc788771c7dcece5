#!/usr/bin/env bash
# A 10-minute soak of filecache at the demo's recommended limit under the
# launcher's plan (issue 15): the number of kernel OOM kills (must be 0) and
# the working set's trend, first minute against last. SOAK= changes the
# length (e.g. SOAK=2m), LIMIT= the limit, RATE= the request rate.
set -euo pipefail
cd "$(dirname "$0")/.."
SOAK=${SOAK:-10m}
# The demo's recommended limit, from the demo's results file (one source).
LIMIT=${LIMIT:-$(jq -r '.figures.recommended_mib' bench/results/demo.json)Mi}
RATE=${RATE:-100}
out=$(mktemp -d /tmp/jvmfit-soak.XXXXXX)
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM

echo "soak: filecache at $LIMIT, 1 CPU, $RATE req/s, --jvm jvmfit, $SOAK measured"
set +e
bin/jvmfit run --app workloads/filecache/app.yaml --memory "$LIMIT" --cpus 1 --jvm jvmfit \
  --rate "$RATE" --warmup 30s --duration "$SOAK" --db "$out/soak.db" >"$out/run.txt" 2>"$out/run.err"
code=$?
set -e
tail -n 4 "$out/run.txt"
bin/jvmfit report --db "$out/soak.db" -e latest -f json >"$out/trials.json"
jq -r '
  .[0] as $t
  | ($t.series | map(select(.ws > 0))) as $s
  | ($s[0].t) as $t0
  | ($s | map(select(.t - $t0 < 60e9)) | map(.ws) | add / length) as $first
  | ($s | map(select(($s[-1].t) - .t < 60e9)) | map(.ws) | add / length) as $last
  | "verdict:        \($t.verdict) \($t.kind // "")",
    "kernel OOM kills: \(if $t.kind == "oom-killed" then 1 else 0 end)",
    "cgroup peak:    \($t.memory_peak_bytes / 1048576 | floor) MiB",
    "working set:    first minute \($first / 1048576 * 10 | floor / 10) MiB, last minute \($last / 1048576 * 10 | floor / 10) MiB (\((($last - $first) / 1048576 * 10) | floor / 10) MiB over the soak)",
    "p99:            \(($t.load.latencies.p99 // 0) / 1e6) ms"
' "$out/trials.json"
if jq -e '.[0].kind == "oom-killed"' "$out/trials.json" >/dev/null; then
  echo "soak: the kernel OOM-killed the app at $LIMIT" >&2
  exit 1
fi
exit 0
