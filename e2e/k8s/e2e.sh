#!/usr/bin/env bash
# The Kubernetes backend end to end, on the cluster up.sh brought up
# (issue 16, part 3, depth 3): filecache's image as real pods, and the same
# trials under the Docker backend, which must agree.
#
#   1. a 2-way parallel sweep at 64Mi and 256Mi (1 CPU), --backend k8s: the
#      64Mi trial must be OOM-killed (Kubernetes' OOMKilled), the 256Mi one
#      OK; then the same sweep under Docker: same verdicts, and the 256Mi
#      trial's memory peak within 8 MiB of the pod's;
#   2. a small minmem (128Mi..256Mi on an 8Mi grid, one repeat at the
#      boundary, no soak) under both: the answers within 8 MiB;
#   3. the same minmem on the cluster at --parallel 2 (two limits a round,
#      two Jobs at once): --parallel 1's answer.
# The minmems run a JVM whose need does not move with the limit (the set
# e2e-fixed: Serial, a 64 MiB heap touched at start, C1): under the JDK's
# defaults the heap is half the limit, so every limit near the edge is a
# different JVM, and three searches of one app gave 144, 152 and 160Mi.
# The SLO is success only: latencies on a shared 2-core machine say more
# about the other tenants than about the backend.
#
# JVMFIT is the jvmfit binary with --backend k8s (default bin/jvmfit);
# DOCKER_JVMFIT the one that runs an image: descriptor locally (default the
# same). The JSON results, the runs' logs and their durations (seconds) go to
# $OUT: by default $STATE/out, which down.sh removes with the cluster; give
# OUT (an empty or missing directory) to keep them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
need_cluster

JVMFIT=${JVMFIT:-$root/bin/jvmfit}
DOCKER_JVMFIT=${DOCKER_JVMFIT:-$JVMFIT}
IMAGE=${IMAGE:-jvmfit-test/filecache:jdk17}
OUT=${OUT:-$STATE/out}
"$JVMFIT" sweep --help 2>/dev/null | grep -q -- '--backend' ||
  die "$JVMFIT has no --backend k8s (internal/backend/kube); build jvmfit from a tree that has it, or give JVMFIT=..."
command -v python3 >/dev/null || die "no python3 (it compares the two backends' JSON)"
[ ! -e "$OUT" ] || [ -z "$(ls -A "$OUT")" ] || die "OUT=$OUT is not empty; give an empty or missing directory"
mkdir -p "$OUT/app"

# The agent image: the static jvmfit binary alone, plus the /tmp it writes to.
agent_dir=$STATE/e2e/agent
mkdir -p "$agent_dir/tmp" && chmod 1777 "$agent_dir/tmp"
cp "$JVMFIT" "$agent_dir/jvmfit"
printf 'FROM scratch\nCOPY jvmfit /usr/local/bin/jvmfit\nCOPY tmp /tmp\nENV PATH=/usr/local/bin\nENTRYPOINT ["jvmfit"]\n' >"$agent_dir/Dockerfile"
AGENT=jvmfit-e2e/agent:$(sha256sum "$JVMFIT" | cut -c1-12)
docker build -q -t "$AGENT" "$agent_dir" >/dev/null 2>&1 || die "cannot build the agent image $AGENT"
"$here/images.sh" "$AGENT"

# The Docker backend's descriptor: filecache's, with the image instead of the jar.
app=$root/workloads/filecache
cp "$app/scenario.yaml" "$app/option-sets.yaml" "$OUT/app/"
sed "s|^jar: .*|image: $IMAGE|" "$app/app.yaml" >"$OUT/app/app.yaml"
printf '%s\n' 'e2e-fixed: ["-XX:+UseSerialGC", "-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch", "-XX:TieredStopAtLevel=1"]' >>"$OUT/app/option-sets.yaml"

ns=jvmfit-e2e
kubectl_ create namespace $ns >/dev/null
kubectl_ -n $ns wait serviceaccount/default --for=create --timeout=60s >/dev/null
k8s=(--backend k8s --agent-image "$AGENT" --namespace $ns --kubeconfig "$KUBECONFIG_ADMIN")
common=(--cpus 1 --duration 10s --slo "success>=0.999" --json)

# run NAME BINARY ARGS...: one experiment, its JSON in $OUT/NAME.json.
run() {
  local name=$1 bin=$2; shift 2
  local t0=$SECONDS
  log "$name: $(basename "$bin") $*"
  "$bin" "$@" --db "$OUT/$name.db" >"$OUT/$name.json" 2>"$OUT/$name.log" ||
    { tail -n 5 "$OUT/$name.log" >&2; die "$name failed (log $OUT/$name.log)"; }
  log "$name: done in $((SECONDS - t0)) s"
  echo "$name $((SECONDS - t0))" >>"$OUT/seconds"
}
run k8s-sweep "$JVMFIT" sweep --app "$OUT/app/app.yaml" "${k8s[@]}" --parallel 2 --memory 64Mi,256Mi --jvm default "${common[@]}"
run docker-sweep "$DOCKER_JVMFIT" sweep --app "$OUT/app/app.yaml" --memory 64Mi,256Mi --jvm default "${common[@]}"
mm=(--min 128Mi --max 256Mi --step 8Mi --repeats 1 --soak 0 --jvm set:e2e-fixed)
run k8s-minmem "$JVMFIT" minmem --app "$OUT/app/app.yaml" "${k8s[@]}" "${mm[@]}" "${common[@]}"
run docker-minmem "$DOCKER_JVMFIT" minmem --app "$OUT/app/app.yaml" "${mm[@]}" "${common[@]}"
run k8s-minmem-p2 "$JVMFIT" minmem --app "$OUT/app/app.yaml" "${k8s[@]}" --parallel 2 "${mm[@]}" "${common[@]}"

python3 "$here/compare.py" "$OUT"
