# Sourced by the seed 004 scripts (bench/seed004.sh, seed004soak.sh,
# levers.sh, jlink.sh): their common start (sidecar_bench), and a descriptor for the
# sidecar proxy (workloads/sidecar) with an upstream started here, for a
# run that is given no APP of its own: bench/loadtarget (a fast loopback
# HTTP server, outside the trial's cgroup, on the last CPU when taskset is
# there) behind the proxy's one route. The scenario GETs /api/item through
# the proxy, open model, at ${rate}.
#
#   sidecar_app DIR   writes DIR/app.yaml and DIR/scenario.yaml, starts the
#                     upstream (its pid in SIDECAR_UPSTREAM_PID) and sets APP
#   sidecar_stop      stops the upstream (call it from the EXIT trap)
#   sidecar_bench NAME  the checks and setup each script starts with: root,
#                     jq, the jvmfit binary, a work directory removed on exit
#                     with the upstream, and APP (loadtarget: sidecar_app);
#                     sets work and app_text (APP as given, for settings)

sidecar_bench() {
  local name=$1
  [[ $(id -u) == 0 ]] || { echo "bench/$name: needs root to create cgroups: run make bench as root" >&2; exit 2; }
  command -v jq >/dev/null || { echo "bench/$name: jq not installed: make bench installs it (bash .ci/install bench)" >&2; exit 2; }
  [[ -x $JVMFIT ]] || CGO_ENABLED=0 go build -o "$JVMFIT" ./cmd/jvmfit
  work=$(mktemp -d)
  trap 'sidecar_stop; rm -rf "$work"' EXIT
  trap 'exit 130' INT TERM
  app_text=$APP
  if [[ $APP == loadtarget ]]; then
    sidecar_app "$work"
  fi
  [[ -f $APP ]] || { echo "bench/$name: $APP not found: give APP=path/to/app.yaml, or APP=loadtarget" >&2; exit 2; }
}

sidecar_app() {
  local dir=$1 jar
  jar=$(pwd)/workloads/sidecar/target/sidecar.jar
  [[ -f $jar ]] || { echo "bench: $jar is not built; run make workloads" >&2; return 2; }
  CGO_ENABLED=0 go build -o "$dir/loadtarget" ./bench/loadtarget
  local pin=()
  command -v taskset >/dev/null && pin=(taskset -c "$(($(nproc) - 1))")
  "${pin[@]}" "$dir/loadtarget" >"$dir/upstream.addr" 2>"$dir/upstream.log" &
  SIDECAR_UPSTREAM_PID=$!
  local i
  for i in $(seq 50); do
    [[ -s $dir/upstream.addr ]] && break
    sleep 0.1
  done
  [[ -s $dir/upstream.addr ]] || { echo "bench: the upstream did not start: $(cat "$dir/upstream.log")" >&2; return 1; }
  cat >"$dir/scenario.yaml" <<'EOF'
name: sidecar-get
base: http://127.0.0.1:8080
vars:
  rate: 1000
  workers: 32
  warmup: 15s
  duration: 30s
requests:
  get:
    method: GET
    url: /api/item
    expect: [200]
phases:
  - name: warmup
    record: false
    model: open
    rate: ${rate}
    duration: ${warmup}
    workers: ${workers}
    sequence:
      - {request: get}
  - name: measure
    model: open
    rate: ${rate}
    duration: ${duration}
    workers: ${workers}
    sequence:
      - {request: get}
EOF
  cat >"$dir/app.yaml" <<EOF
# The sidecar proxy in front of bench/loadtarget at $(cat "$dir/upstream.addr") (bench/sidecarapp.sh).
name: sidecar
jar: $jar
args: ["--port=\${port}", "--upstream=$(cat "$dir/upstream.addr")"]
port: 0
ready: http://127.0.0.1:\${port}/sidecar/health
ready_timeout: 60s
scenario: scenario.yaml
rate: 1000
slo: "p99<=1ms,p999<=5ms,success>=0.999,throughput>=0.95*rate"
EOF
  APP=$dir/app.yaml
}

sidecar_stop() {
  # (set -e is on in the callers: a killed child's status must not end
  # the EXIT trap with it)
  if [[ -n ${SIDECAR_UPSTREAM_PID:-} ]]; then
    kill "$SIDECAR_UPSTREAM_PID" 2>/dev/null || true
    wait "$SIDECAR_UPSTREAM_PID" 2>/dev/null || true
  fi
  SIDECAR_UPSTREAM_PID=
}
