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
#   minmem     not a layout: one jvmfit minmem from the root cgroup.
cg=/sys/fs/cgroup
name=$1
ms() { awk '{printf "%d", $1 * 1000}' /proc/uptime; }
t0=$(ms)
echo "@@LAYOUT $name BEGIN"
case $name in
root | minmem)
	dirs=""
	sh /guest/steps.sh "$name"
	;;
systemd)
	dirs="$cg/user.slice/session-1.scope $cg/user.slice"
	mkdir -p $cg/user.slice/session-1.scope
	for c in $(cat $cg/user.slice/cgroup.controllers); do
		echo "+$c" >$cg/user.slice/cgroup.subtree_control
	done
	sh -c "echo \$\$ >$cg/user.slice/session-1.scope/cgroup.procs && exec sh /guest/steps.sh $name"
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
