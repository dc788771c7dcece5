#!/usr/bin/env bash
# `make e2e-k8s`, measured (docs/measured/kubernetes.md): the single-node
# cluster brought up, the smoke, jvmfit's sweep and minmem as pods against
# the Docker backend, minmem at --parallel 2 against --parallel 1, and the
# teardown, with each step's results kept (e2e.sh's OUT). Writes
# bench/results/kubernetes-e2e.json:
#   up_ms                       up.sh: from its start to the node Ready and untainted
#   smoke.ready_ms              the smoke's Java pod (160Mi, 1 CPU): apply to Ready
#   smoke.oom_ms                the smoke's OOM pod: apply to Failed (OOMKilled)
#   k8s_minmem.answer_mib       minmem on the cluster, --parallel 1 (.trials, .seconds)
#   k8s_minmem_p2.answer_mib    the same at --parallel 2 (.trials, .seconds)
#   docker_minmem.answer_mib    the same under the Docker backend (.trials, .seconds)
#   p2_equals_p1                1 when --parallel 2's answer is --parallel 1's
#   k8s_sweep.seconds, docker_sweep.seconds
#   total_s                     make e2e-k8s from start to nothing left
#   load.before, load.after     1-minute load average
# Needs root, Docker, the binaries of .ci/k8s/build e2e (make e2e-k8s builds them).
#   bash bench/k8s-e2e.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/results.sh
source bench/results.sh

[[ $(id -u) == 0 ]] || { echo "bench/k8s-e2e.sh: needs root (a cluster: cgroups, a bridge, containerd)" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench/k8s-e2e.sh: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }

work=$(mktemp -d)
# Kept when the run fails: its trials' JSON and logs say why.
trap 'status=$?; if [ $status = 0 ]; then rm -rf "$work"; else echo "bench/k8s-e2e.sh: failed; the run'"'"'s results and log are kept in $work" >&2; fi' EXIT
load_before=$(cut -d' ' -f1 /proc/loadavg)
start=$SECONDS
OUT=$work/out make e2e-k8s 2>&1 | tee "$work/log"
total=$((SECONDS - start))
load_after=$(cut -d' ' -f1 /proc/loadavg)
grep -q 'cluster down; nothing left' "$work/log" || { echo "bench/k8s-e2e.sh: the teardown did not say nothing was left" >&2; exit 1; }

# e2e-k8s's lines: "cluster up in N ms", "Ready (...) N ms after apply", "phase Failed N ms after apply".
up_ms=$(sed -n 's/.*cluster up in \([0-9]*\) ms.*/\1/p' "$work/log")
ready_ms=$(sed -n 's/.*java pod.*Ready (.*) \([0-9]*\) ms after apply.*/\1/p' "$work/log")
oom_ms=$(sed -n 's/.*oom pod.*phase Failed \([0-9]*\) ms after apply.*/\1/p' "$work/log")
secs() { awk -v n="$1" '$1 == n { print $2 }' "$work/out/seconds"; }
answer() { jq -er '.modes[0].min_ok_bytes / 1048576' "$work/out/$1.json"; }
trials() { jq -er '.modes[0].trial_count' "$work/out/$1.json"; }
p1=$(answer k8s-minmem) p2=$(answer k8s-minmem-p2)

write_results kubernetes-e2e.json bench/k8s-e2e.sh \
  "make e2e-k8s: filecache's image (JDK 17), --cpus 1 --jvm default --duration 10s --slo success>=0.999; sweep 64Mi,256Mi (k8s at --parallel 2); minmem --min 128Mi --max 256Mi --step 8Mi --repeats 0 --soak 0 on the cluster at --parallel 1 and 2, and under Docker" \
  up_ms="$up_ms" smoke.ready_ms="$ready_ms" smoke.oom_ms="$oom_ms" \
  k8s_minmem.answer_mib="$p1" k8s_minmem.trials="$(trials k8s-minmem)" k8s_minmem.seconds="$(secs k8s-minmem)" \
  k8s_minmem_p2.answer_mib="$p2" k8s_minmem_p2.trials="$(trials k8s-minmem-p2)" k8s_minmem_p2.seconds="$(secs k8s-minmem-p2)" \
  docker_minmem.answer_mib="$(answer docker-minmem)" docker_minmem.trials="$(trials docker-minmem)" \
  docker_minmem.seconds="$(secs docker-minmem)" \
  p2_equals_p1="$([[ $p1 == "$p2" ]] && echo 1 || echo 0)" \
  k8s_sweep.seconds="$(secs k8s-sweep)" docker_sweep.seconds="$(secs docker-sweep)" \
  total_s="$total" load.before="$load_before" load.after="$load_after"
