# Shared by up.sh, down.sh, smoke.sh and run.sh: where the single-node
# cluster keeps its state and how to reach it. Sourced, not run.

# Everything the cluster writes lives under STATE (certificates, etcd's
# data, containerd's root and state, the kubelet's root and the pods' logs,
# the CNI's IP leases, the daemons' pids and logs); down.sh removes it.
STATE=${JVMFIT_K8S_STATE:-/tmp/jvmfit-k8s-e2e}
# The binaries .ci/k8s/build makes (kube-*, kubectl, kubelet, etcd).
K8S_BIN=${JVMFIT_K8S_DIR:-/opt/jvmfit-k8s}/bin
NODE=jvmfit-e2e

# Ports, all on 127.0.0.1 or the cluster's own bridge, away from the
# defaults so that a cluster or envtest already running elsewhere does not
# collide with this one.
ETCD_PORT=12379
ETCD_PEER_PORT=12380
APISERVER_PORT=16443
SCHEDULER_PORT=10359
CONTROLLER_MANAGER_PORT=10357
KUBELET_PORT=10350
KUBELET_HEALTHZ_PORT=10348

# The pods' network: a bridge of its own with a private /24 that nothing
# routes out of this machine (no masquerading). The node's address is the
# bridge's: the kubelet refuses a loopback node IP, and the API server
# reaches the kubelet (logs, exec) there.
BRIDGE=jvmfitk8s0
POD_SUBNET=10.244.77.0/24
NODE_IP=10.244.77.1
SERVICE_SUBNET=10.96.77.0/24

CONTAINERD_SOCK=$STATE/containerd/containerd.sock
KUBECONFIG_ADMIN=$STATE/kubeconfig/admin.yaml

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
