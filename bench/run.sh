#!/usr/bin/env bash
# Runs every benchmark script in bench/ (make bench).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for script in bench/*.sh; do
  [[ $(basename "$script") == run.sh ]] && continue
  echo "== $script"
  bash "$script" || { echo "== $script failed" >&2; status=1; }
done
exit $status
