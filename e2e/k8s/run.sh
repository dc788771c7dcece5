#!/usr/bin/env bash
# `make e2e-k8s`: brings the single-node cluster up, proves it runs Java
# pods and reports OOM kills (smoke.sh), runs jvmfit's Kubernetes backend
# end to end on it (e2e.sh), and tears the cluster down on every exit:
# success, failure, Ctrl-C, SIGTERM. A SIGKILLed run leaves its state
# directory and daemons behind; the next run sweeps them first.
#
#   e2e/k8s/run.sh [smoke]      (smoke: the cluster checks only)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"

what=${1:-all}
case $what in
  all | smoke) ;;
  *) echo "usage: e2e/k8s/run.sh [smoke] (got '$what')" >&2; exit 2 ;;
esac

APP_IMAGE=jvmfit-test/filecache:jdk17
jar=$root/workloads/filecache/target/filecache.jar
[ -e "$jar" ] || { echo "e2e-k8s: no $jar; run make workloads" >&2; exit 2; }

# A leftover of a SIGKILLed run (its run.sh no longer runs) is swept first.
for d in "$STATE_PATTERN"*; do
  stale_state "$d" || continue
  log "sweeping a killed run's cluster ($d)"
  JVMFIT_K8S_STATE=$d "$here/down.sh"
done

# This run's state: a fresh directory (mktemp: 0700, a name nobody could
# have planted), owned by this process (stale_state).
use_state "$(mktemp -d "${STATE_PATTERN}XXXXXX")"
touch "$STATE/$MARK"
process_id $$ >"$STATE/owner"
export JVMFIT_K8S_STATE=$STATE
# A teardown that leaves something behind fails the run, even a passing one.
trap 'status=$?; "$here/down.sh" || status=1; exit $status' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$here/up.sh"
(cd "$root" && go run ./e2e/k8s/testimage -jar "$jar" -tag "$APP_IMAGE")
"$here/images.sh" "$APP_IMAGE"
IMAGE=$APP_IMAGE "$here/smoke.sh"
[ "$what" = smoke ] && exit 0
IMAGE=$APP_IMAGE "$here/e2e.sh"
