#!/bin/sh
# layout.sh NAME: builds one cgroup layout of issue 20 around a shell, runs
# steps.sh in that shell (so jvmfit and the tests start where a user's
# would), then removes the layout's cgroups and reports any jvmfit* group
# left anywhere in the hierarchy.
#
#   root       jvmfit in the hierarchy's root cgroup (exempt from the "no
#              internal processes" rule; works without any placement).
#   systemd    a leaf that holds processes, controllers available above:
#              /user.slice/session-1.scope holding the shell.
#   container  the root of a cgroup namespace that holds processes, with a
#              fresh cgroup2 mount of that view (Docker, a Kubernetes pod).
#   host       the measured host: /agent/<id> holds the shell, /agent
#              enables only memory, the root enables everything.
#   docker     Docker's daemon (dockerd, containerd, runc; cgroupfs driver)
#              in /system.slice/docker.service, as systemd starts it, and
#              the shell in /user.slice/session-2.scope; engines.sh's steps.
#   podman     the same shell with podman (no daemon), engines.sh's steps.
#   stall      the systemd layout's leaf (/user.slice/session-3.scope) for
#              the stall steps alone: PSI on a real v2 kernel.
#   minmem     not a layout: one jvmfit minmem from the root cgroup.
cg=/sys/fs/cgroup
name=$1
ms() { awk '{printf "%d", $1 * 1000}' /proc/uptime; }
t0=$(ms)
# await NAME CHECK PID LOG: waits until CHECK succeeds while PID lives (10
# minutes at most: emulation on a loaded host is slow), then says how long
# NAME took, or why it failed with the errors of its LOG.
await() {
	i=0
	until $2 >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 3000 ] || ! kill -0 $3 2>/dev/null; then
			echo "@@INFO $1 failed to start: $(grep -E 'level=(error|fatal)|rror' $4 | tail -n 8 | tr '\n' ' ')"
			return 1
		fi
		sleep 0.2
	done
	echo "@@INFO $1 answered after $(($(ms) - t0)) ms"
}
echo "@@LAYOUT $name BEGIN"
case $name in
root | minmem)
	dirs=""
	sh /guest/steps.sh "$name"
	;;
systemd | stall)
	scope=session-1.scope
	[ $name = stall ] && scope=session-3.scope
	dirs="$cg/user.slice/$scope $cg/user.slice"
	mkdir -p $cg/user.slice/$scope
	for c in $(cat $cg/user.slice/cgroup.controllers); do
		echo "+$c" >$cg/user.slice/cgroup.subtree_control
	done
	sh -c "echo \$\$ >$cg/user.slice/$scope/cgroup.procs && exec sh /guest/steps.sh $name"
	;;
container)
	dirs="$cg/docker-4e1f.scope"
	mkdir -p $cg/docker-4e1f.scope
	# A new cgroup and mount namespace: /proc/self/cgroup reads 0::/ and the
	# fresh mount shows docker-4e1f.scope as the root, as in a container.
	sh -c "echo \$\$ >$cg/docker-4e1f.scope/cgroup.procs && exec /usr/bin/unshare --cgroup --mount sh -c 'umount $cg && mount -t cgroup2 cgroup2 $cg && exec sh /guest/steps.sh $name'"
	;;
host)
	dirs="$cg/agent/7f3e $cg/agent"
	mkdir -p $cg/agent/7f3e
	echo "+memory" >$cg/agent/cgroup.subtree_control
	sh -c "echo \$\$ >$cg/agent/7f3e/cgroup.procs && exec sh /guest/steps.sh $name"
	;;
docker | podman)
	dirs="$cg/user.slice/session-2.scope $cg/user.slice $cg/system.slice/docker.service $cg/system.slice/containerd.service $cg/system.slice"
	mkdir -p $cg/user.slice/session-2.scope $cg/system.slice/docker.service $cg/system.slice/containerd.service
	for s in user.slice system.slice; do
		for c in $(cat $cg/$s/cgroup.controllers); do
			echo "+$c" >$cg/$s/cgroup.subtree_control
		done
	done
	daemons=
	if [ $name = docker ]; then
		# containerd first, in its own service's group, as Debian's units
		# start it: dockerd's own would have to start within dockerd's
		# timeout, which emulation on a loaded host misses.
		sh -c "echo \$\$ >$cg/system.slice/containerd.service/cgroup.procs && exec containerd --root /scratch/containerd \
			--state /run/containerd >/tmp/containerd.log 2>&1" &
		daemons=$!
		await "containerd" "test -S /run/containerd/containerd.sock" $daemons /tmp/containerd.log
		# No bridge, no iptables: the guest has neither, and jvmfit's
		# containers use the host's network. vfs: no overlay module.
		# DOCKER_RAMDISK: the guest's root is the initramfs, which
		# pivot_root cannot leave; runc then moves the container's root
		# into place instead.
		sh -c "echo \$\$ >$cg/system.slice/docker.service/cgroup.procs && DOCKER_RAMDISK=true exec dockerd --data-root /scratch/docker \
			--containerd /run/containerd/containerd.sock --storage-driver vfs --exec-opt native.cgroupdriver=cgroupfs \
			--bridge none --iptables=false --ip-masq=false --userland-proxy=false >/tmp/dockerd.log 2>&1" &
		daemons="$! $daemons"
		await "dockerd" "docker info" ${daemons%% *} /tmp/dockerd.log
	fi
	sh -c "echo \$\$ >$cg/user.slice/session-2.scope/cgroup.procs && exec sh /guest/steps.sh $name"
	rc=$?
	# dockerd first, then containerd.
	for d in $daemons; do
		kill $d
		wait $d
	done
	(exit $rc)
	;;
*)
	echo "@@INFO unknown layout $name"
	;;
esac
rc=$?
[ $rc = 0 ] || echo "@@INFO the $name layout's shell ended with status $rc"
# The layout's shell has exited. Anything named jvmfit* in the whole
# hierarchy now is a leftover.
left=$(find $cg -name 'jvmfit*' -type d | tr '\n' ' ')
echo "@@LEFT $name ${left:-none}"
# The layout's cgroups are empty unless something was left running; what
# jvmfit made below them goes first (depth first).
for d in $dirs; do
	[ -d "$d" ] && find "$d" -depth -mindepth 1 -type d -exec rmdir {} \; 2>/dev/null
	rmdir "$d" 2>/dev/null
done
echo "@@LAYOUT $name END $(($(ms) - t0))"
