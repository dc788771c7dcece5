#!/usr/bin/env bash
# Brings up a single-node Kubernetes cluster on this machine, offline and
# without an init system: etcd, kube-apiserver, kube-controller-manager
# (Jobs), kube-scheduler, a containerd of its own with its CRI plugin, and a
# kubelet, each started by hand in the background. Everything lives under
# $STATE (e2e/k8s/lib.sh); e2e/k8s/down.sh stops every process by its pid
# and removes the pods' cgroups, the bridge and $STATE. If any step fails,
# up.sh runs down.sh itself.
#
# Needs: .ci/k8s/build e2e (the binaries), Debian's containerd, runc and
# containernetworking-plugins (docker.io brings the first two), gcc, openssl.
# It imports the pause image; the caller imports the images its pods run
# (e2e/k8s/images.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

[ "$(id -u)" = 0 ] || die "up.sh needs root (cgroups, a bridge, containerd)"
for b in etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl; do
  [ -x "$K8S_BIN/$b" ] || die "no $K8S_BIN/$b; run .ci/k8s/build e2e"
done
for c in containerd containerd-shim-runc-v2 runc ctr openssl ip gcc; do
  command -v $c >/dev/null || die "no $c; run .ci/k8s/build e2e, which installs it"
done
[ -x /usr/lib/cni/bridge ] && [ -x /usr/lib/cni/host-local ] && [ -x /usr/lib/cni/loopback ] ||
  die "no CNI plugins in /usr/lib/cni; run .ci/k8s/build e2e (Debian containernetworking-plugins)"
if [ -e "$STATE" ]; then
  die "$STATE exists: a cluster is up or was left by a killed run; run e2e/k8s/down.sh first"
fi

mkdir -p "$STATE"/{pids,logs,pki,kubeconfig,etcd,containerd,cni/net.d,cni/ipam,kubelet/root,kubelet/pods-logs}
# From here on, a failure tears down what was started.
trap 'status=$?; if [ $status != 0 ]; then echo "e2e-k8s: up failed; logs in $STATE/logs (kept in $STATE.failed-logs)" >&2; rm -rf "$STATE.failed-logs"; cp -r "$STATE/logs" "$STATE.failed-logs" 2>/dev/null; "$here/down.sh" >&2; fi' EXIT
t0=$(date +%s%N)

# start NAME ARGV...: a daemon in its own session (a Ctrl-C at the terminal
# reaches run.sh's trap, which stops it in order), its pid in $STATE/pids.
start() {
  local name=$1; shift
  setsid "$@" >"$STATE/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$STATE/pids/$name.pid"
}
# wait_for WHAT SECONDS CMD...: polls CMD every 0.2 s; fails naming WHAT.
wait_for() {
  local what=$1 secs=$2 i; shift 2
  for ((i = 0; i < secs * 5; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "$what not ready after ${secs}s (logs in $STATE/logs)"
}

# --- certificates and tokens (no kubeadm): one CA signs the API server's
# serving certificate and the client certificate it shows the kubelet; the
# components authenticate to the API server with static tokens.
pki=$STATE/pki
ossl() { openssl "$@" 2>/dev/null; }
ossl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=jvmfit-e2e-ca \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  -keyout "$pki/ca.key" -out "$pki/ca.crt"
# sign NAME SUBJECT EXTENSIONS
sign() {
  ossl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$pki/$1.key" -out "$pki/$1.csr"
  ossl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -extfile <(printf '%s\n' "$3") -out "$pki/$1.crt"
}
sign apiserver /CN=kube-apiserver "subjectAltName=IP:127.0.0.1,IP:${SERVICE_SUBNET%.0/24}.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc
extendedKeyUsage=serverAuth"
sign apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "extendedKeyUsage=clientAuth"
# The service-account token signing key pair.
ossl genrsa -out "$pki/sa.key" 2048
ossl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub"
# token,user,uid,"groups"
token() { openssl rand -hex 16; }
tok_admin=$(token) tok_kubelet=$(token) tok_sched=$(token) tok_kcm=$(token)
cat >"$pki/tokens.csv" <<EOF
$tok_admin,jvmfit-e2e-admin,1,"system:masters"
$tok_kubelet,system:node:$NODE,2,"system:nodes"
$tok_sched,system:kube-scheduler,3
$tok_kcm,system:kube-controller-manager,4
EOF
chmod 600 "$pki"/*.key "$pki/tokens.csv"
# kubeconfig NAME TOKEN
kubeconfig() {
  cat >"$STATE/kubeconfig/$1.yaml" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: "https://127.0.0.1:$APISERVER_PORT", certificate-authority: "$pki/ca.crt"}
users:
- name: $1
  user: {token: "$2"}
contexts:
- name: e2e
  context: {cluster: e2e, user: $1}
current-context: e2e
EOF
  chmod 600 "$STATE/kubeconfig/$1.yaml"
}
kubeconfig admin "$tok_admin"
kubeconfig kubelet "$tok_kubelet"
kubeconfig scheduler "$tok_sched"
kubeconfig controller-manager "$tok_kcm"

# --- cgroups: the pods' cgroup root, below this shell's memory cgroup, in
# every v1 hierarchy (the kubelet requires it to exist in each). Each
# directory up.sh creates is listed, deepest last, for down.sh.
cgroot=$(own_memory_cgroup)/jvmfit-k8s-e2e
cgroot=/${cgroot#/}
for h in $(cgroup_hierarchies); do
  path=$h
  IFS=/ read -ra parts <<<"${cgroot#/}"
  for p in "${parts[@]}"; do
    parent=$path path=$path/$p
    [ -d "$path" ] && continue
    mkdir "$path"
    echo "$path" >>"$STATE/cgroups.created"
    # a new cpuset has no CPUs or memory nodes: a task cannot join it.
    if [ -e "$path/cpuset.cpus" ]; then
      cat "$parent/cpuset.cpus" >"$path/cpuset.cpus"
      cat "$parent/cpuset.mems" >"$path/cpuset.mems"
    fi
  done
done
echo "$cgroot" >"$STATE/cgroup-root"

# --- the pods' bridge, with the node's address on it (see lib.sh).
ip link add "$BRIDGE" type bridge
echo "$BRIDGE" >"$STATE/bridge.created"
ip addr add "$NODE_IP/${POD_SUBNET#*/}" dev "$BRIDGE"
ip link set "$BRIDGE" up

# --- etcd (Debian's 3.4).
start etcd "$K8S_BIN/etcd" --name e2e --data-dir "$STATE/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "e2e=http://127.0.0.1:$ETCD_PEER_PORT" \
  --quota-backend-bytes $((512 << 20))
wait_for etcd 30 curl -fsS "http://127.0.0.1:$ETCD_PORT/health"

# --- kube-apiserver. Node,RBAC authorization (the kubelet's token is
# system:node:<node>); the endpoint reconciler is off because the
# "kubernetes" service's address would be 127.0.0.1, which the Endpoints
# API rejects; no pod here talks to the API server anyway.
start kube-apiserver "$K8S_BIN/kube-apiserver" \
  --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" \
  --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --client-ca-file "$pki/ca.crt" --token-auth-file "$pki/tokens.csv" \
  --authorization-mode Node,RBAC --allow-privileged=true \
  --service-cluster-ip-range "$SERVICE_SUBNET" --endpoint-reconciler-type none \
  --service-account-issuer https://kubernetes.default.svc \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" \
  --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
  --kubelet-preferred-address-types InternalIP \
  --profiling=false
wait_for "kube-apiserver" 90 kubectl_ get --raw /readyz

# --- containerd, an instance of its own: its own root, state, socket and
# runc root, so it shares nothing with dockerd's containerd.
#   restrict_oom_score_adj: root here lacks CAP_SYS_RESOURCE, so a
#     container may not get an oom_score_adj below containerd's own (the
#     kubelet asks -997 for Guaranteed pods' sandboxes);
#   SystemdCgroup = false: the cgroupfs driver (no systemd), as the kubelet;
#   netns_mounts_under_state_dir: the pods' network namespaces are mounted
#     under $STATE, not /var/run/netns;
#   sandbox_image: the pause image built from pause.c (images.sh), never pulled.
cd_=$STATE/containerd
cat >"$cd_/config.toml" <<EOF
version = 2
root = "$cd_/root"
state = "$cd_/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$cd_/containerd.sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$cd_/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "jvmfit.local/pause:3.10"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  disable_apparmor = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$cd_/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
EOF
# The pods' network: the bridge above, addresses from host-local (leases
# under $STATE), no masquerading: pods reach each other and this host only.
cat >"$STATE/cni/net.d/10-jvmfit-e2e.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "jvmfit-e2e",
  "plugins": [{
    "type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false,
    "ipam": {
      "type": "host-local", "dataDir": "$STATE/cni/ipam",
      "ranges": [[{"subnet": "$POD_SUBNET", "rangeStart": "${POD_SUBNET%.0/24}.10",
                   "rangeEnd": "${POD_SUBNET%.0/24}.250", "gateway": "$NODE_IP"}]]
    }
  }]
}
EOF
start containerd containerd --config "$cd_/config.toml"
wait_for containerd 30 ctr_ version

# --- the pause image (the sandbox): pause.c from the kubernetes module,
# linked statically, as the only file of an image. Imported directly into
# containerd's k8s.io namespace, where the CRI plugin looks for images.
"$here/images.sh"

# --- the kubelet.
#   failCgroupV1: false: Kubernetes 1.35 refuses cgroup v1 unless told, and
#     this machine has only v1;
#   cgroupDriver cgroupfs, cgroupRoot below this shell's cgroup (above);
#   address/healthz on the node's bridge address and loopback only;
#   authentication by client certificate (the API server's) only, no
#     anonymous access;
#   eviction and image GC thresholds low: this is a shared test machine,
#     and the imported images cannot be pulled again;
#   podLogsDir under $STATE instead of /var/log/pods;
#   makeIPTablesUtilChains: false: no KUBE-FIREWALL, KUBE-IPTABLES-HINT or
#     KUBE-KUBELET-CANARY chains in the host's iptables (they serve
#     kube-proxy, which does not run here, and would outlive the cluster).
# The device plugin socket's directory is fixed at /var/lib/kubelet/
# device-plugins whatever --root-dir says: down.sh removes /var/lib/kubelet
# when up.sh finds it missing.
cat >"$STATE/kubelet/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: "$cgroot"
containerRuntimeEndpoint: "unix://$CONTAINERD_SOCK"
address: "$NODE_IP"
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: "$pki/ca.crt"}
authorization:
  mode: AlwaysAllow
failSwapOn: false
oomScoreAdj: 0
podLogsDir: "$STATE/kubelet/pods-logs"
evictionHard:
  memory.available: "100Mi"
  nodefs.available: "1%"
  imagefs.available: "1%"
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
maxPods: 20
makeIPTablesUtilChains: false
EOF
[ -e /var/lib/kubelet ] || echo /var/lib/kubelet >"$STATE/var-lib-kubelet.created"
start kubelet "$K8S_BIN/kubelet" --config "$STATE/kubelet/config.yaml" \
  --kubeconfig "$STATE/kubeconfig/kubelet.yaml" --root-dir "$STATE/kubelet/root" \
  --cert-dir "$STATE/kubelet/pki" --hostname-override "$NODE" --node-ip "$NODE_IP" --v 1

# --- the scheduler and the controller manager (Jobs, service accounts,
# node lifecycle), on loopback. Each controller acts as its own service
# account (--use-service-account-credentials), which the default RBAC
# roles are written for; the controller manager's own user may do little.
start kube-scheduler "$K8S_BIN/kube-scheduler" --kubeconfig "$STATE/kubeconfig/scheduler.yaml" \
  --leader-elect=false --bind-address 127.0.0.1 --secure-port "$SCHEDULER_PORT"
start kube-controller-manager "$K8S_BIN/kube-controller-manager" \
  --kubeconfig "$STATE/kubeconfig/controller-manager.yaml" \
  --leader-elect=false --bind-address 127.0.0.1 --secure-port "$CONTROLLER_MANAGER_PORT" \
  --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
  --use-service-account-credentials=true

node_ready() {
  [ "$(kubectl_ get node "$NODE" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" = True ]
}
wait_for "node $NODE Ready" 120 node_ready
wait_for "the default service account" 60 kubectl_ get serviceaccount default -n default
no_taints() { [ -z "$(kubectl_ get node "$NODE" -o 'jsonpath={.spec.taints}')" ]; }
wait_for "node $NODE untainted" 60 no_taints

trap - EXIT
log "cluster up in $(( ($(date +%s%N) - t0) / 1000000 )) ms: KUBECONFIG=$KUBECONFIG_ADMIN (state $STATE)"
