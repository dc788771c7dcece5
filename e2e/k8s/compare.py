"""Compares the Kubernetes backend's results with the Docker backend's
(e2e/k8s/e2e.sh): the same verdict at each sweep limit, an OOM-killed pod
among them, minmem answers within 8 MiB, and the Kubernetes minmem at
--parallel 2 on the answer of --parallel 1. The sweep's memory peaks are
printed, not judged: at a limit well above the minimum the JVM's heap and
GC timing make the peak vary by tens of MiB between two runs on the same
backend (docs/kubernetes-e2e.md).

    python3 e2e/k8s/compare.py OUT_DIR

OUT_DIR holds k8s-sweep.json, docker-sweep.json, k8s-minmem.json,
docker-minmem.json and k8s-minmem-p2.json (jvmfit --json). Prints one line per check and exits 1
if any fails.
"""
import json
import sys

MIB = 1 << 20
TOLERANCE = 8 * MIB


def load(out, name):
    with open(f"{out}/{name}.json") as f:
        return json.load(f)


def main(out):
    failures = []

    def check(ok, line):
        print(("ok    " if ok else "FAIL  ") + line)
        if not ok:
            failures.append(line)

    k8s, docker = load(out, "k8s-sweep"), load(out, "docker-sweep")
    cells = {c["memory_bytes"]: c for c in docker["cells"]}
    oom_seen = False
    for kc in k8s["cells"]:
        lim = kc["memory_bytes"]
        dc = cells.get(lim)
        if dc is None:
            check(False, f"sweep {lim // MIB}Mi: no Docker cell at that limit")
            continue
        kv = (kc["verdict"], kc.get("kind", ""))
        dv = (dc["verdict"], dc.get("kind", ""))
        check(kv == dv, f"sweep {lim // MIB}Mi: k8s {'/'.join(filter(None, kv))}, docker {'/'.join(filter(None, dv))}")
        oom_seen = oom_seen or kv == ("KO", "oom-killed")
        if kc["verdict"] == "OK" and dc["verdict"] == "OK":
            kp, dp = kc["memory_peak_bytes"], dc["memory_peak_bytes"]
            print(f"info  sweep {lim // MIB}Mi: memory peak k8s {kp / MIB:.1f} MiB, docker {dp / MIB:.1f} MiB "
                  f"(difference {abs(kp - dp) / MIB:.1f} MiB)")
    check(oom_seen, "sweep: an OOM-killed trial among the pods")

    km, dm = load(out, "k8s-minmem")["modes"][0], load(out, "docker-minmem")["modes"][0]
    ka, da = km["min_ok_bytes"], dm["min_ok_bytes"]
    check(ka > 0 and da > 0, f"minmem: both found an OK limit (k8s {ka // MIB}Mi, docker {da // MIB}Mi)")
    check(abs(ka - da) <= TOLERANCE,
          f"minmem: k8s {ka // MIB}Mi ({km['trial_count']} trials), docker {da // MIB}Mi "
          f"({dm['trial_count']} trials), difference {abs(ka - da) // MIB} MiB, allowed 8")
    dt = {t["limit_bytes"]: t for t in dm["trials"]}
    for t in km["trials"]:
        o = dt.get(t["limit_bytes"])
        if o is not None and t["verdict"] == "OK" and o["verdict"] == "OK":
            print(f"info  minmem {t['limit_bytes'] // MIB}Mi: memory peak k8s {t['memory_peak_bytes'] / MIB:.1f} MiB, "
                  f"docker {o['memory_peak_bytes'] / MIB:.1f} MiB")
    pm = load(out, "k8s-minmem-p2")["modes"][0]
    check(pm["min_ok_bytes"] == ka,
          f"minmem --parallel 2: k8s {pm['min_ok_bytes'] // MIB}Mi ({pm['trial_count']} trials), "
          f"--parallel 1 {ka // MIB}Mi ({km['trial_count']} trials)")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("the Kubernetes backend agrees with the Docker backend")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: compare.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
