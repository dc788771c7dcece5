# bench/large.sh's rows (limit, mode, run: heap, p99, throughput at
# saturation, verdict, kernel OOM kill, cgroup peak, options) in the common
# results format (bench/results/README.md): one figure per cell and field,
# keyed LIMIT.MODE.runN.FIELD, and jvmfit's plan per limit, so go test ./docs
# checks every figure docs/launcher.md quotes. Input: {date, machine {host,
# kernel, cores, load}, jdk, commit, rows}; --arg script, --arg settings,
# --arg cpus (the CPU count the plans were made for).
def mib: . / 1048576 * 10 | round / 10;
def cell: "\(.limit).\(.jvm).run\(.run)";
{
  script: $script,
  date: .date,
  machine: "\(.machine.cores) CPUs, kernel \(.machine.kernel), load average \(.machine.load)",
  jdk: .jdk,
  jvmfit: .commit,
  settings: $settings,
  figures: ([.rows[] | cell as $c |
    {key: "\($c).heap_mib", value: (.heap_max_bytes | mib)},
    {key: "\($c).p99_ms", value: (.p99_ms * 1000 | round / 1000)},
    {key: "\($c).saturation_rps", value: (.saturation_rps * 10 | round / 10)},
    {key: "\($c).ok", value: (if .verdict == "OK" then 1 else 0 end)},
    {key: "\($c).java_oom", value: (if .kind == "java-oom" then 1 else 0 end)},
    {key: "\($c).slo_ko", value: (if .kind == "slo" then 1 else 0 end)},
    {key: "\($c).oom_killed", value: (if .oom_killed then 1 else 0 end)},
    {key: "\($c).peak_mib", value: (.memory_peak_bytes | mib)}
  ] | from_entries),
  plans: ([.rows[] | select(.jvm == "jvmfit" and .run == 1) |
    {key: "\(.limit)/\($cpus)/balanced", value: (.options | join(" "))}] | from_entries),
  rows: .rows
}
