#!/bin/sh
# steps.sh LAYOUT: the steps run in each layout, from the layout's shell.
# run.conf (written by the test) names the real-group tests to run and the
# trial limits. Each step prints
#   @@BEGIN LAYOUT STEP
#   ...its stderr, as it comes...
#   @@STDOUT
#   ...its stdout...
#   @@END LAYOUT STEP RC MS
# and the test judges each from that (layout_test.go). A step that is a
# function of this script runs as `steps.sh LAYOUT FUNCTION`, so that
# timeout can end it.
. /guest/run.conf
layout=$1
cg=/sys/fs/cgroup
ms() { awk '{printf "%d", $1 * 1000}' /proc/uptime; }
out=/tmp/stdout.$$

step() {
	s=$1
	shift
	t=$(ms)
	echo "@@BEGIN $layout $s"
	timeout -s KILL "$STEP_TIMEOUT" "$@" 2>&1 >$out
	rc=$?
	echo "@@STDOUT"
	cat $out
	echo "@@END $layout $s $rc $(($(ms) - t))"
}

# Each layout gets a database and working directory of its own.
work=$TMPDIR/work-$layout
mkdir -p $work
cd $work || exit 1
# ingroup TENTHS ARGS...: starts `jvmfit ARGS` in the background (stderr in
# $work/killed.log) and waits, TENTHS tenths of a second at most, until its
# app runs in a trial group below its jvmfit-<pid>; sets pid and base (that
# group's path). On failure it kills jvmfit and says why.
ingroup() {
	n=$1
	shift
	jvmfit "$@" >/dev/null 2>$work/killed.log &
	pid=$!
	i=0
	while :; do
		base=$(find $cg -name "jvmfit-$pid" -type d | head -n 1)
		if [ -n "$base" ] && [ -n "$(find "$base" -mindepth 2 -name cgroup.procs -exec cat {} + 2>/dev/null)" ]; then
			return 0
		fi
		i=$((i + 1))
		if [ $i -gt $n ] || ! kill -0 $pid 2>/dev/null; then
			cat $work/killed.log >&2
			echo "no app in a trial group of jvmfit $pid after $((n / 10))s" >&2
			kill -9 $pid
			return 1
		fi
		sleep 0.1
	done
}

# killed: a trial is started, and jvmfit is SIGKILLed as soon as its app
# runs in the trial's group (mid-trial, before it is ready); the keeper
# jvmfit leaves (internal/sandbox/keeper.go) kills what is in the trial's
# groups and removes them, and the next run sweeps the jvmfit-<pid> parent.
# Prints the trial groups still there after 10 s: none.
killed() {
	ingroup 600 run --app /app/app.yaml --db $work/killed.db --memory "$OK_MEMORY" || return 1
	groups=$(find "$base" -mindepth 1 -type d 2>/dev/null)
	kill -9 $pid
	wait $pid
	echo "jvmfit $pid SIGKILLed, its app running in $groups" >&2
	i=0
	while [ -n "$(find "$base" -mindepth 1 -type d 2>/dev/null)" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	find "$base" -mindepth 1 -type d 2>/dev/null
	return 0
}

# trial LIMIT: one trial of the service through the CLI; prints the
# result's top-level figures (the whole JSON holds every sample) and exits
# as jvmfit did.
trial() {
	jvmfit run --app /app/app.yaml --db $work/jvmfit.db --json --memory "$1" >$work/trial.json
	rc=$?
	grep -E '^  "(verdict|kind|start_seconds|memory_peak_bytes|working_set_peak_bytes|heap_max_bytes)":' $work/trial.json
	return $rc
}

# In the layout's own view (a container sees only its namespace).
leftover() { find $cg -name 'jvmfit*' -type d; }

# stalltrial MODE: a trial of testdata/hog.yaml: the service, and beside it
# in the trial's group pagehog (internal/sandbox/testdata/pagehog) filling
# the group to 24 MiB under its limit, then using a 96 MiB file in the room
# left: thrash faults its mapped pages at random (a stall), churn streams
# it through read() (no stall). Prints the result's figures and why it
# failed, if it did.
stalltrial() {
	if [ ! -s $TMPDIR/hog.data ]; then
		dd if=/dev/urandom of=$TMPDIR/hog.data bs=1M count=96 2>/dev/null && sync
	fi
	HOG_MODE=$1 HOG_FILE=$TMPDIR/hog.data jvmfit run --app /app/hog.yaml --db $work/stall.db --json --memory "$HOG_MEMORY" --cpus 1 >$work/stall-$1.json
	rc=$?
	grep -E '^  "(verdict|kind|start_seconds|memory_peak_bytes|working_set_peak_bytes)":' $work/stall-$1.json
	sed -n '/^  "failed": \[/,/^  \]/p' $work/stall-$1.json | sed -n '2s/^ *"\(.*\)",*$/failed \1/p'
	return $rc
}

case $layout in
docker | podman) . /guest/engines.sh ;;
esac

if [ -n "$2" ]; then
	shift
	"$@"
	exit
fi

# Not a layout: one minmem of the service with the JDK's defaults, from the
# root cgroup, for the figure docs/cgroupv2.md compares with a v1 host.
if [ "$layout" = minmem ]; then
	step minmem jvmfit minmem --app /app/app.yaml --jvm default --min 32Mi --max 256Mi --step 8Mi \
		--repeats 0 --soak 0 --db $work/minmem.db
	exit
fi

if [ -n "$engine" ]; then
	engine_steps
	exit
fi

# The stall steps: the sandbox's stall tests and two trials through
# jvmfit, on a kernel with PSI (memory.pressure).
if [ "$layout" = stall ]; then
	step stall /guest/bin/sandbox.test -test.v -test.timeout 240s -test.run "$STALL_RUN"
	step thrash sh /guest/steps.sh "$layout" stalltrial thrash
	step churn sh /guest/steps.sh "$layout" stalltrial churn
	exit
fi

echo "@@INFO $layout cgroup $(cat /proc/self/cgroup) controllers $(cat $cg$(cut -d: -f3 /proc/self/cgroup)/cgroup.controllers 2>/dev/null)"
step doctor jvmfit doctor
step cgroup /guest/bin/cgroup.test -test.v -test.timeout 240s -test.run "$CGROUP_RUN"
step sandbox /guest/bin/sandbox.test -test.v -test.timeout 240s -test.run "$SANDBOX_RUN" -test.skip "$SANDBOX_SKIP"
step probe /guest/bin/probe.test -test.v -test.timeout 240s -test.run "$PROBE_RUN"
step killed sh /guest/steps.sh "$layout" killed
step ok sh /guest/steps.sh "$layout" trial "$OK_MEMORY"
step leftover sh /guest/steps.sh "$layout" leftover
step small sh /guest/steps.sh "$layout" trial "$SMALL_MEMORY"
