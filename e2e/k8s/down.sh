#!/usr/bin/env bash
# Tears down what up.sh started, in an order that leaves nothing behind, and
# is safe to run at any point (a half-started cluster, a second time, after
# a SIGKILLed run):
#   1. the kubelet, scheduler and controller manager stop (by pid), so that
#      nothing restarts a container;
#   2. every container in the cluster's containerd is killed and deleted,
#      which ends its shim; a shim still alive then (it names this cluster's
#      socket on its command line) is killed by pid;
#   3. containerd, the API server and etcd stop (by pid);
#   4. mounts left under $STATE (pod volumes, network namespaces, rootfs)
#      are unmounted, the pods' cgroups removed deepest first, then the
#      cgroup directories up.sh created, then the bridge, /var/lib/kubelet
#      if up.sh created it, then $STATE.
#
#   JVMFIT_K8S_STATE=DIR e2e/k8s/down.sh      (DIR: the state up.sh printed)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

[ -n "$STATE" ] || die "JVMFIT_K8S_STATE is not set: give the state directory up.sh printed"
[ -d "$STATE" ] || exit 0
# Only a directory run.sh or up.sh made is torn down and removed.
[ ! -L "$STATE" ] && [ -e "$STATE/$MARK" ] || die "$STATE is not a cluster's state directory (no $MARK in it); not touching it"

# stop NAME: SIGTERM, up to 10 s, then SIGKILL; only the pid up.sh wrote,
# and only if that pid still runs the binary it started (not a reused pid).
stop() {
  local f=$STATE/pids/$1.pid pid i
  [ -e "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$1"; then
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$f"
}

stop kubelet
stop kube-scheduler
stop kube-controller-manager

# Containers: tasks killed and deleted (the shim exits with its last task),
# then the containers and their snapshots.
if [ -S "$CONTAINERD_SOCK" ] && ctr_ version >/dev/null 2>&1; then
  for id in $(ctr_ tasks ls -q 2>/dev/null); do
    ctr_ tasks kill -s SIGKILL "$id" >/dev/null 2>&1
  done
  for id in $(ctr_ tasks ls -q 2>/dev/null); do
    for ((i = 0; i < 25; i++)); do ctr_ tasks delete "$id" >/dev/null 2>&1 && break; sleep 0.2; done
  done
  for id in $(ctr_ containers ls -q 2>/dev/null); do ctr_ containers delete "$id" >/dev/null 2>&1; done
fi
# Shims still running (containerd died first, or a task would not go): each
# names this cluster's socket in its arguments; killing one kills its
# container's processes too (they are its children in its pid namespace).
for d in /proc/[0-9]*; do
  [ -r "$d/cmdline" ] || continue
  cmd=$(tr '\0' ' ' 2>/dev/null <"$d/cmdline") || continue
  case $cmd in
    *containerd-shim*"-address $CONTAINERD_SOCK "*) kill -KILL "${d#/proc/}" 2>/dev/null ;;
  esac
done
stop containerd
stop kube-apiserver
stop etcd

# Mounts under $STATE, deepest first (mountinfo's fifth field; octal
# escapes for spaces do not occur in these paths).
awk -v s="$STATE/" 'index($5, s) == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
  umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
done

# The pods' cgroups below the cgroup root, deepest first; a cgroup whose
# processes are still dying is retried for a few seconds.
if [ -e "$STATE/cgroup-root" ]; then
  cgroot=$(cat "$STATE/cgroup-root")
  for ((i = 0; i < 25; i++)); do
    left=0
    for h in $(cgroup_hierarchies); do
      [ -d "$h$cgroot" ] || continue
      while read -r d; do rmdir "$d" 2>/dev/null || left=1; done < <(find "$h$cgroot" -mindepth 1 -type d | sort -r)
    done
    [ $left = 0 ] && break
    sleep 0.2
  done
fi
# The directories up.sh created (the root and any missing ancestor), last first.
if [ -e "$STATE/cgroups.created" ]; then
  tac "$STATE/cgroups.created" | while read -r d; do
    [ -d "$d" ] && { rmdir "$d" 2>/dev/null || echo "e2e-k8s: cannot remove cgroup $d (processes left in it?)" >&2; }
  done
fi

[ -e "$STATE/bridge.created" ] && ip link del "$BRIDGE" 2>/dev/null
# The kubelet's fixed device-plugins directory, when up.sh found no
# /var/lib/kubelet (no other kubelet uses it then).
[ -e "$STATE/var-lib-kubelet.created" ] && rm -rf /var/lib/kubelet

if awk -v s="$STATE/" 'index($5, s) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
  echo "e2e-k8s: mounts left under $STATE; not removing it" >&2
  exit 1
fi
rm -rf "$STATE"

# Nothing may be left: a process naming $STATE (every daemon and shim does),
# a cgroup of the cluster's, the bridge, a kubelet iptables chain.
left=()
for d in /proc/[0-9]*; do
  case $(tr '\0' ' ' 2>/dev/null <"$d/cmdline") in *"$STATE/"*) left+=("process ${d#/proc/}") ;; esac
done
while read -r d; do left+=("cgroup $d"); done < <(find /sys/fs/cgroup -maxdepth 6 -type d -name jvmfit-k8s-e2e 2>/dev/null)
ip link show "$BRIDGE" >/dev/null 2>&1 && left+=("bridge $BRIDGE")
if command -v iptables-save >/dev/null && iptables-save 2>/dev/null | grep -q '^:KUBE-'; then left+=("iptables KUBE-* chains"); fi
if [ ${#left[@]} -gt 0 ]; then
  echo "e2e-k8s: left after teardown: ${left[*]}" >&2
  exit 1
fi
log "cluster down; nothing left ($STATE removed)"
