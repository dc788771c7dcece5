# Shared by up.sh, down.sh, smoke.sh and run.sh: where the single-node
# cluster keeps its state and how to reach it. Sourced, not run.

# Everything the cluster writes lives under STATE (certificates, etcd's
# data, containerd's root and state, the kubelet's root and the pods' logs,
# the CNI's IP leases, the daemons' pids and logs); down.sh removes it.
# STATE is made by mktemp (root must not write to a name in /tmp that
# someone could have planted first): run.sh makes it and exports it as
# JVMFIT_K8S_STATE to up.sh, smoke.sh, e2e.sh and down.sh; up.sh run by hand
# makes one and says its name. STATE_PATTERN finds a killed run's.
STATE_PATTERN=/tmp/jvmfit-k8s-e2e.
STATE=${JVMFIT_K8S_STATE:-}
# The binaries .ci/k8s/build makes (kube-*, kubectl, kubelet, etcd).
K8S_BIN=${JVMFIT_K8S_DIR:-/opt/jvmfit-k8s}/bin
NODE=jvmfit-e2e

# Ports: chosen by up.sh among the free ones (free_port) and kept in
# $STATE/ports.env, so that a cluster, envtest or anything else already
# listening on this machine's shared loopback does not collide with this
# one. Every listener authenticates its clients with the cluster's CA
# (etcd too: client certificates), so a process that took a port first
# cannot pass for a daemon, nor talk to one.
ETCD_PORT= ETCD_PEER_PORT= APISERVER_PORT= KUBELET_PORT=
# free_port: a TCP port no socket uses now, below the ephemeral range (so
# that no outgoing connection takes it meanwhile) and away from the
# well-known ones; up.sh checks that each daemon really got its port.
free_port() {
  local p i
  for ((i = 0; i < 100; i++)); do
    p=$((20000 + RANDOM % 12000))
    ss -Htan "( sport = :$p )" 2>/dev/null | grep -q . && continue
    case " ${ETCD_PORT:-} ${ETCD_PEER_PORT:-} ${APISERVER_PORT:-} ${KUBELET_PORT:-} " in *" $p "*) continue ;; esac
    echo "$p"
    return 0
  done
  return 1
}

# The pods' network: a bridge of its own with a private /24 that nothing
# routes out of this machine (no masquerading). The node's address is the
# bridge's: the kubelet refuses a loopback node IP, and the API server
# reaches the kubelet (logs, exec) there.
BRIDGE=jvmfitk8s0
POD_SUBNET=10.244.77.0/24
NODE_IP=10.244.77.1
SERVICE_SUBNET=10.96.77.0/24

# MARK is up.sh's first file in STATE: down.sh removes only a directory
# that has it, whatever JVMFIT_K8S_STATE names.
MARK=.jvmfit-k8s-e2e
# use_state DIR: the paths and ports of the cluster whose state is DIR.
use_state() {
  STATE=$1
  CONTAINERD_SOCK=$STATE/containerd/containerd.sock
  KUBECONFIG_ADMIN=$STATE/kubeconfig/admin.yaml
  # shellcheck disable=SC1091 # written by up.sh
  if [ -n "$STATE" ] && [ -e "$STATE/ports.env" ]; then . "$STATE/ports.env"; fi
}
use_state "$STATE"
# need_cluster: fails in one line unless STATE names a cluster up.sh brought up.
need_cluster() {
  [ -n "$STATE" ] || die "JVMFIT_K8S_STATE is not set: give the state directory up.sh printed (run.sh does)"
  [ -e "$STATE/$MARK" ] && [ -e "$KUBECONFIG_ADMIN" ] || die "no cluster in $STATE (run e2e/k8s/up.sh first)"
}
# process_id PID: its pid and start time (a reused pid has another).
process_id() {
  local pid=$1 stat
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  # shellcheck disable=SC2086 # split into stat's fields, from the state (3rd)
  set -- $stat
  echo "$pid ${20}"
}
# stale_state DIR: DIR is a state directory (a real one, root's, with MARK)
# whose run.sh is gone: the process its owner file names no longer runs.
# A cluster up.sh brought up by hand has no owner file and is never stale.
stale_state() {
  local d=$1 owner
  [ -d "$d" ] && [ ! -L "$d" ] && [ "$(stat -c %u "$d")" = 0 ] && [ -e "$d/owner" ] || return 1
  owner=$(cat "$d/owner")
  [ "$(process_id "${owner%% *}")" != "$owner" ]
}

kubectl_() { "$K8S_BIN/kubectl" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }
ctr_() { ctr --address "$CONTAINERD_SOCK" --namespace k8s.io "$@"; }
log() { echo "e2e-k8s: $*"; }
die() { echo "e2e-k8s: $*" >&2; exit 1; }

# The cgroup hierarchies: every v1 one, and the v2 one of a hybrid layout
# (/sys/fs/cgroup/unified), where runc creates the pods' cgroups too. The
# pods' cgroups go below the memory cgroup this shell runs in, in every
# hierarchy, so that the cluster's pods count against the same limit as
# the tests that start it, as jvmfit's own trials do.
cgroup_hierarchies() {
  awk '$3 == "cgroup" || $3 == "cgroup2" { print $2 }' /proc/mounts
}
own_memory_cgroup() {
  awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup
}
