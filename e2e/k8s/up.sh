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
command -v ss >/dev/null || die "no ss; install iproute2"
# One cluster at a time: the bridge, its subnet and /var/lib/kubelet are the
# machine's.
if ip link show "$BRIDGE" >/dev/null 2>&1; then
  die "bridge $BRIDGE exists: another cluster is up (or a killed one left it); JVMFIT_K8S_STATE=<its state> e2e/k8s/down.sh"
fi
# The state directory: run.sh's (an empty one it made with mktemp), or a new one.
if [ -z "$STATE" ]; then
  use_state "$(mktemp -d "${STATE_PATTERN}XXXXXX")"
  touch "$STATE/$MARK"
  log "state $STATE: JVMFIT_K8S_STATE=$STATE for smoke.sh, e2e.sh and down.sh"
fi
[ -d "$STATE" ] && [ ! -L "$STATE" ] && [ "$(stat -c %u:%a "$STATE")" = 0:700 ] && [ -e "$STATE/$MARK" ] ||
  die "$STATE is not a state directory (root's, mode 700, made by run.sh or up.sh); leave JVMFIT_K8S_STATE unset"
export JVMFIT_K8S_STATE=$STATE
[ -e "$STATE/pids" ] && die "a cluster is up in $STATE, or was left by a killed run; JVMFIT_K8S_STATE=$STATE e2e/k8s/down.sh"

mkdir -p "$STATE"/{pids,logs,pki,kubeconfig,etcd,containerd,cni/net.d,cni/ipam,kubelet/root,kubelet/pods-logs}
# From here on, a failure tears down what was started; the logs are kept
# in a directory of their own.
keep_logs() {
  local d
  d=$(mktemp -d /tmp/jvmfit-k8s-e2e-logs.XXXXXX) && cp -r "$STATE/logs/." "$d/" 2>/dev/null
  echo "e2e-k8s: up failed; the daemons' logs are kept in $d" >&2
}
trap 'status=$?; if [ $status != 0 ]; then keep_logs; "$here/down.sh" >&2; fi' EXIT
t0=$(date +%s%N)

# The ports, free now (lib.sh); each daemon's readiness check below goes
# through its port and its certificate, so a port taken meanwhile fails.
ETCD_PORT=$(free_port) && ETCD_PEER_PORT=$(free_port) && APISERVER_PORT=$(free_port) && KUBELET_PORT=$(free_port) ||
  die "no free port found"
printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPISERVER_PORT=%s\nKUBELET_PORT=%s\n' \
  "$ETCD_PORT" "$ETCD_PEER_PORT" "$APISERVER_PORT" "$KUBELET_PORT" >"$STATE/ports.env"

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
# etcd serves and peers on loopback with TLS, and takes only clients with a
# certificate of this CA: the API server's, and the health check's.
sign etcd /CN=jvmfit-e2e-etcd "subjectAltName=IP:127.0.0.1,DNS:localhost
extendedKeyUsage=serverAuth,clientAuth"
sign apiserver-etcd-client /CN=kube-apiserver-etcd-client "extendedKeyUsage=clientAuth"
# The kubelet's serving certificate, which the API server checks when it
# reaches the kubelet (logs) on the node's address.
sign kubelet "/CN=$NODE" "subjectAltName=IP:$NODE_IP,DNS:$NODE
extendedKeyUsage=serverAuth"
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

# --- etcd (Debian's 3.4), TLS on both its ports, client certificates required.
start etcd "$K8S_BIN/etcd" --name e2e --data-dir "$STATE/etcd" \
  --listen-client-urls "https://127.0.0.1:$ETCD_PORT" --advertise-client-urls "https://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "https://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "https://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "e2e=https://127.0.0.1:$ETCD_PEER_PORT" \
  --cert-file "$pki/etcd.crt" --key-file "$pki/etcd.key" --client-cert-auth --trusted-ca-file "$pki/ca.crt" \
  --peer-cert-file "$pki/etcd.crt" --peer-key-file "$pki/etcd.key" --peer-client-cert-auth \
  --peer-trusted-ca-file "$pki/ca.crt" \
  --quota-backend-bytes $((512 << 20))
wait_for etcd 30 curl -fsS --cacert "$pki/ca.crt" --cert "$pki/apiserver-etcd-client.crt" \
  --key "$pki/apiserver-etcd-client.key" "https://127.0.0.1:$ETCD_PORT/health"

# --- kube-apiserver. Node,RBAC authorization (the kubelet's token is
# system:node:<node>); the endpoint reconciler is off because the
# "kubernetes" service's address would be 127.0.0.1, which the Endpoints
# API rejects; no pod here talks to the API server anyway.
start kube-apiserver "$K8S_BIN/kube-apiserver" \
  --etcd-servers "https://127.0.0.1:$ETCD_PORT" --etcd-cafile "$pki/ca.crt" \
  --etcd-certfile "$pki/apiserver-etcd-client.crt" --etcd-keyfile "$pki/apiserver-etcd-client.key" \
  --anonymous-auth=false \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" \
  --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --client-ca-file "$pki/ca.crt" --token-auth-file "$pki/tokens.csv" \
  --authorization-mode Node,RBAC --allow-privileged=true \
  --service-cluster-ip-range "$SERVICE_SUBNET" --endpoint-reconciler-type none \
  --service-account-issuer https://kubernetes.default.svc \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" \
  --kubelet-client-key "$pki/apiserver-kubelet-client.key" --kubelet-certificate-authority "$pki/ca.crt" \
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
#   address on the node's bridge address, with a serving certificate of
#     the cluster's CA (the API server checks it); no healthz port, no
#     read-only port;
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
tlsCertFile: "$pki/kubelet.crt"
tlsPrivateKeyFile: "$pki/kubelet.key"
readOnlyPort: 0
healthzPort: 0
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
# Neither serves anything (--secure-port 0): their healthz and metrics
# would be two more listeners on the shared loopback, and nothing reads them.
start kube-scheduler "$K8S_BIN/kube-scheduler" --kubeconfig "$STATE/kubeconfig/scheduler.yaml" \
  --leader-elect=false --secure-port 0
start kube-controller-manager "$K8S_BIN/kube-controller-manager" \
  --kubeconfig "$STATE/kubeconfig/controller-manager.yaml" \
  --leader-elect=false --secure-port 0 \
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
