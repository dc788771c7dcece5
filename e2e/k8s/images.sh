#!/usr/bin/env bash
# Copies images from Docker into the cluster's containerd (namespace k8s.io,
# where its CRI plugin looks), since nothing can be pulled here:
#
#   e2e/k8s/images.sh IMAGE...
#
# The pause image (jvmfit.local/pause:3.10, containerd's sandbox_image) is
# made first if Docker lacks it: the static pause binary .ci/k8s/build e2e
# compiles from the kubernetes module's pause.c, as the only file of an
# image (docker import).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

PAUSE=jvmfit.local/pause:3.10
[ -x "$K8S_BIN/pause" ] || die "no $K8S_BIN/pause; run .ci/k8s/build e2e"
sum=$(sha256sum "$K8S_BIN/pause" | cut -c1-16)
if [ "$(docker image inspect --format '{{index .Config.Labels "jvmfit.inputs"}}' $PAUSE 2>/dev/null)" != "$sum" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cp "$K8S_BIN/pause" "$tmp/pause"
  tar -C "$tmp" -cf - pause | docker import --change 'ENTRYPOINT ["/pause"]' \
    --change "LABEL jvmfit.inputs=$sum" - $PAUSE >/dev/null
fi
docker save $PAUSE "$@" | ctr_ images import - >/dev/null
log "imported into containerd: $PAUSE $*"
