#!/bin/sh
# hog.sh PORT JAVA [JVM OPTIONS...]: the stall trials' app (hog.yaml). It
# starts the service; once it answers, pagehog (HOG_MODE, on HOG_FILE)
# fills the trial's group to 24 MiB under its limit and then thrashes or
# churns in the room left, for longer than the trial. The service stays
# the app jvmfit waits on.
port=$1
shift
"$@" -cp /app/classes Tiny "$port" 24 &
j=$!
until wget -q -O /dev/null "http://127.0.0.1:$port/" 2>/dev/null; do
	kill -0 $j 2>/dev/null || exit 1
	sleep 0.2
done
/guest/bin/pagehog "$HOG_MODE" 24 "$HOG_FILE" 600 &
wait $j
