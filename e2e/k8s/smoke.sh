#!/usr/bin/env bash
# Proves the single-node cluster runs what the Kubernetes backend needs, on
# a cluster up.sh brought up:
#   1. a Java pod (filecache's image, built offline from the host's JDK 17)
#      at 160Mi / 1 CPU (JAVA_MEM) becomes Ready: its readiness probe GETs
#      /actuator/health over the pods' bridge, so Ready means the JVM serves;
#   2. the same image at 64Mi, with a heap of 96 MiB touched at start
#      (-Xms96m -XX:+AlwaysPreTouch in JAVA_TOOL_OPTIONS), is OOM-killed by
#      the kernel, and Kubernetes reports the container terminated with
#      reason=OOMKilled (containerd's cgroup OOM event through the CRI),
#      exit code 137;
#   3. after both pods are deleted, no pod cgroup is left below the
#      kubelet's cgroup root.
# It prints one line per figure (times from apply, the cluster's memory)
# and fails on the first thing that does not hold.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_cluster

IMAGE=${IMAGE:-jvmfit-test/filecache:jdk17}
# filecache needs 136-152 MiB (README: jvmfit minmem); at 128Mi its JVM is
# OOM-killed at the first request, which would make the Ready check a lottery.
JAVA_MEM=${JAVA_MEM:-160Mi}
ns=jvmfit-smoke-$$
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

kubectl_ create namespace $ns >/dev/null
trap 'kubectl_ delete namespace $ns --wait=false >/dev/null 2>&1 || true' EXIT
# The namespace's default service account appears shortly after it.
kubectl_ -n $ns wait serviceaccount/default --for=create --timeout=60s >/dev/null

# pod NAME MEMORY EXTRA: a pod of the image, limits = requests (Guaranteed),
# never restarted; the image is imported, never pulled.
pod() {
  cat <<EOF
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: $ns}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 2
  containers:
  - name: app
    image: $IMAGE
    imagePullPolicy: Never
    resources:
      limits: {memory: $2, cpu: "1"}
      requests: {memory: $2, cpu: "1"}
    volumeMounts: [{name: tmp, mountPath: /tmp}]
$3
  volumes:
  - name: tmp
    emptyDir: {medium: Memory}
EOF
}
# The sample services listen on 127.0.0.1 (application.properties); the
# kubelet probes the pod's address, so this pod listens on all of its
# addresses (Spring reads SERVER_ADDRESS over the properties file). The
# pod's addresses are its loopback and one on the cluster's private bridge.
probe='    env: [{name: SERVER_ADDRESS, value: 0.0.0.0}]
    readinessProbe:
      httpGet: {path: /actuator/health, port: 8080}
      periodSeconds: 1
      timeoutSeconds: 5
      failureThreshold: 120'

# 1. Ready at $JAVA_MEM / 1 CPU. The times are polled through kubectl
# (0.3 s apart, plus its own start: a few hundred ms on a loaded machine).
t0=$(now_ms)
pod java "$JAVA_MEM" "$probe" | kubectl_ apply -f - >/dev/null
t_run= SECONDS=0
while :; do
  st=$(kubectl_ -n $ns get pod java -o 'jsonpath={.status.phase} {.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].state.terminated.reason}')
  read -r phase ready reason <<<"$st"
  [ -z "$t_run" ] && [ "$phase" = Running ] && t_run=$(( $(now_ms) - t0 ))
  [ "$ready" = True ] && break
  [ "$phase" = Failed ] && die "the $JAVA_MEM pod failed before Ready: reason=$reason"
  [ $SECONDS -ge 300 ] && die "the $JAVA_MEM pod is not Ready after 300 s: $(kubectl_ -n $ns describe pod java | tail -n 8)"
  sleep 0.3
done
t_ready=$(( $(now_ms) - t0 ))
log "java pod $JAVA_MEM/1 CPU: Running ${t_run} ms after apply, Ready (GET /actuator/health answers) ${t_ready} ms after apply (load $(cut -d' ' -f1-3 /proc/loadavg))"

# Its memory as the kubelet enforces it: the container's cgroup limit and usage.
uid=$(kubectl_ -n $ns get pod java -o 'jsonpath={.metadata.uid}')
cgroot=$(cat "$STATE/cgroup-root")
podcg=$(find "/sys/fs/cgroup/memory$cgroot" -maxdepth 3 -type d -name "pod$uid" | head -n 1)
[ -n "$podcg" ] || die "no memory cgroup for pod $uid below $cgroot"
limit=$(cat "$podcg/memory.limit_in_bytes")
[ "$limit" = $(( ${JAVA_MEM%Mi} << 20 )) ] || die "pod cgroup limit $limit, want $(( ${JAVA_MEM%Mi} << 20 )) ($JAVA_MEM)"
usage=$(cat "$podcg/memory.usage_in_bytes")
log "java pod cgroup ${podcg#/sys/fs/cgroup/memory}: limit $JAVA_MEM, usage $((usage >> 20)) MiB"
log "java pod log: $(kubectl_ -n $ns logs java | grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds.*' || echo '(no Started line)')"

# 2. OOM-killed at 64Mi: the pre-touched heap alone exceeds the limit.
oomenv='    env: [{name: JAVA_TOOL_OPTIONS, value: "-Xms96m -XX:+AlwaysPreTouch"}]'
t0=$(now_ms)
pod oom 64Mi "$oomenv" | kubectl_ apply -f - >/dev/null
kubectl_ -n $ns wait pod/oom --for=jsonpath='{.status.phase}'=Failed --timeout=300s >/dev/null ||
  die "the 64Mi pod has not failed after 300 s: $(kubectl_ -n $ns get pod oom -o 'jsonpath={.status}')"
t_oom=$(( $(now_ms) - t0 ))
reason=$(kubectl_ -n $ns get pod oom -o 'jsonpath={.status.containerStatuses[0].state.terminated.reason}')
code=$(kubectl_ -n $ns get pod oom -o 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}')
log "oom pod 64Mi (-Xms96m -XX:+AlwaysPreTouch): terminated reason=$reason exitCode=$code, phase Failed ${t_oom} ms after apply"
[ "$reason" = OOMKilled ] || die "the 64Mi pod ended with reason '$reason', want OOMKilled"
[ "$code" = 137 ] || die "the 64Mi pod's exit code is $code, want 137"

# The cluster's memory: the daemons' RSS (up.sh's pids and the shims), and the pods'.
rss=0
for f in "$STATE"/pids/*.pid; do
  r=$(awk '/^VmRSS/ { print $2 }' "/proc/$(cat "$f")/status" 2>/dev/null || echo 0)
  rss=$((rss + ${r:-0}))
done
shims=0
for d in /proc/[0-9]*; do
  case $(tr '\0' ' ' 2>/dev/null <"$d/cmdline") in
    *containerd-shim*"-address $CONTAINERD_SOCK "*)
      r=$(awk '/^VmRSS/ { print $2 }' "$d/status" 2>/dev/null || echo 0); shims=$((shims + ${r:-0})) ;;
  esac
done
kubepods=$(cat "/sys/fs/cgroup/memory$cgroot/kubepods/memory.usage_in_bytes" 2>/dev/null || echo 0)
log "memory: daemons $((rss >> 10)) MiB RSS (etcd, apiserver, controller-manager, scheduler, kubelet, containerd), shims $((shims >> 10)) MiB, pods $((kubepods >> 20)) MiB"

# 3. Deleted pods leave no cgroup.
kubectl_ -n $ns delete pod java oom --grace-period=2 --wait=true >/dev/null
SECONDS=0
while left=$(find "/sys/fs/cgroup/memory$cgroot" -type d -name "pod$uid" | wc -l) && [ "$left" != 0 ] && [ $SECONDS -lt 30 ]; do
  sleep 0.2
done
[ "$left" = 0 ] || die "pod $uid's cgroup is still there 30 s after its deletion"
log "smoke passed: pods deleted, their cgroups removed"
