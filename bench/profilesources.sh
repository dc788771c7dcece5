#!/usr/bin/env bash
# The four sources of a profile side by side (docs/measured/profile.md): for
# greet-spring and greet-quarkus (Micrometer's Prometheus registry) under the
# same load (3 req/s, 512Mi, 1 CPU, JDK 17; the trial GETs the metrics endpoint
# too, as Prometheus scrapes it in production), the profile of a jvmfit trial
# with NMT, and of a second running instance from `jvmfit profile --pid`,
# `--scrape` and `--prometheus` (Debian's Prometheus, scraping the service
# and the container's figures under cAdvisor's names). It runs the test
# that checks they agree (e2e/cli/profile TestFourSourcesAgree) and writes
# its figures, per app, source and region, with the time each source took
# to give its profile, to bench/results/profile-sources.json.
# Needs root (real cgroups) and the two samples built (make workloads).
#   NOTE="shared machine" bash bench/profilesources.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/results.sh

kv=$(mktemp)
log=$(mktemp)
trap 'rm -f "$kv" "$log"' EXIT
load_before=$(cut -d' ' -f1 /proc/loadavg)
status=0
JVMFIT_PROFILE_RESULTS=$kv go test -count=1 -v -timeout 25m -run TestFourSourcesAgree ./e2e/cli/profile/ >"$log" 2>&1 || status=$?
grep -E '^\s+(source|trial|pid|scrape|prometheus) |--- |sources_test' "$log" || true
if [ ! -s "$kv" ]; then
  tail -n 20 "$log" >&2
  echo "profilesources: the test wrote no figures (exit $status)" >&2
  exit 1
fi
mapfile -t figures <"$kv"
write_results profile-sources.json bench/profilesources.sh \
  "greet-spring, greet-quarkus; 3 req/s, 512Mi, 1 CPU; trial 10s warm-up + 20s; pid 20s at 500ms with --gc; scrape 24s at 2s beside pid; prometheus range 2m at 1s; ${NOTE:-}" \
  "agree=$([ "$status" = 0 ] && echo 1 || echo 0)" "load_before=$load_before" \
  "load_after=$(cut -d' ' -f1 /proc/loadavg)" "${figures[@]}"
exit "$status"
