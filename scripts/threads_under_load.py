#!/usr/bin/env python3
"""Worker threads under load (issue 28 item 4): does the default `--threads`
(adaptive, docs/cycle-model.md "Adaptive threads") ever lose to one thread?

    python3 scripts/threads_under_load.py [--rounds R] [--busy N] [--gpusim PATH]
                                          [--no-pair] [--no-sweep]

Runs the 64-CU matrix multiply (workloads/examples/matmul_256.yaml on
hw/configs/examples/64cu.yaml, `--model cycle`) as whole processes, the two
settings alternately (the order flips each round), in R rounds (default 2):

  idle   `--threads 1` and the default (`auto`), nothing else started;
  busy   the same with N busy processes (`yes > /dev/null`, default one per
         core) running throughout;
  pair   two runs side by side (what `gpusim sweep -j 2` does), default
         against `--threads 1` for both (no busy processes);
  sweep  `gpusim sweep -j 2` over two 64-CU points, default (each job its
         share of the cores) against `--threads 1` (no busy processes).

For each it reports the wall time and the CPU time (user + system, all
threads: os.wait4) of every run, their medians, the ratio of the medians
(default / one thread; above 1.00 the default is slower) and the load
average before each run. The machine may be shared: every figure is printed
with the load it ran under.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOAD = "workloads/examples/matmul_256.yaml"
CONFIG = "hw/configs/examples/64cu.yaml"


def loadavg():
    return os.getloadavg()[0]


def start(cmd):
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def finish(p, started):
    """Waits for p; (wall s, cpu s, output)."""
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - started
    out = p.stdout.read().decode(errors="replace")
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"error: {' '.join(p.args)} exited {p.returncode}:\n{out}")
    return wall, ru.ru_utime + ru.ru_stime, out


def run_cmd(gpusim, threads):
    cmd = [gpusim, "run", WORKLOAD, "--model", "cycle", "--config", CONFIG, "--stats", "json"]
    if threads is not None:
        cmd += ["--threads", threads]
    return cmd


def one(gpusim, threads):
    t0 = time.monotonic()
    wall, cpu, out = finish(start(run_cmd(gpusim, threads)), t0)
    if "PASS" not in out:
        sys.exit(f"error: the run did not pass its check:\n{out}")
    return wall, cpu, cycles_of(out)


def cycles_of(out):
    # `--stats json` prints one JSON object after the check lines.
    import json

    i = out.find("{")
    try:
        return json.loads(out[i:]).get("cycles")
    except ValueError:
        return None


def pair(gpusim, threads):
    """Two runs side by side; wall of the pair, CPU of both."""
    t0 = time.monotonic()
    procs = [start(run_cmd(gpusim, threads)) for _ in range(2)]
    results = [finish(p, t0) for p in procs]
    return max(r[0] for r in results), sum(r[1] for r in results), None


def sweep(gpusim, threads, work):
    spec = os.path.join(work, "s.yaml")
    with open(spec, "w") as f:
        f.write(
            "name: threads\nworkloads:\n  - %s\nconfig: %s\ngrid:\n  cu.scheduler: [oldest-first, round-robin]\n"
            % (os.path.join(ROOT, WORKLOAD), os.path.join(ROOT, CONFIG))
        )
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [gpusim, "sweep", spec, "-j", "2", "--out", out]
    if threads is not None:
        cmd += ["--threads", threads]
    t0 = time.monotonic()
    wall, cpu, text = finish(start(cmd), t0)
    if "0 failed" not in text:
        sys.exit(f"error: sweep failed:\n{text}")
    return wall, cpu, None


def busy_start(n):
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(n)]


def busy_stop(procs):
    for p in procs:
        p.send_signal(signal.SIGTERM)
        p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--busy", type=int, default=os.cpu_count())
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "target/release/gpusim"))
    ap.add_argument("--no-pair", action="store_true")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--only", choices=["idle", "busy", "pair", "sweep"], action="append")
    a = ap.parse_args()
    if not os.access(a.gpusim, os.X_OK):
        sys.exit(f"error: {a.gpusim} not found (cargo build --release -p cosim)")
    kinds = a.only or ["idle", "busy"] + ([] if a.no_pair else ["pair"]) + ([] if a.no_sweep else ["sweep"])
    cpu_model = next(
        (l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"
    )
    print(f"# {cpu_model}, {os.cpu_count()} cores; busy processes: {a.busy}; rounds: {a.rounds}")
    results = {}  # (kind, setting) -> [(wall, cpu, load, cycles)]
    work = tempfile.mkdtemp(prefix="gpusim-threads-")
    try:
        for r in range(a.rounds):
            order = [None, "1"] if r % 2 == 0 else ["1", None]
            for kind in kinds:
                for threads in order:
                    load = loadavg()
                    busy = busy_start(a.busy) if kind == "busy" else []
                    try:
                        if kind == "busy":
                            time.sleep(0.5)  # let the busy processes spread over the cores
                        f = {"idle": one, "busy": one, "pair": pair}.get(kind)
                        res = f(a.gpusim, threads) if f else sweep(a.gpusim, threads, work)
                    finally:
                        busy_stop(busy)
                    name = "default" if threads is None else "--threads 1"
                    results.setdefault((kind, name), []).append((res[0], res[1], load, res[2]))
                    print(
                        f"round {r + 1} {kind:5} {name:12} wall {res[0]:7.2f} s  cpu {res[1]:7.2f} s  "
                        f"load before {load:5.2f}  cycles {res[2]}",
                        flush=True,
                    )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print("| run | setting | wall s (each) | cpu s (each) | load before | median wall | default / 1 thread |")
    print("|---|---|---|---|---|---:|---:|")
    for kind in kinds:
        base = statistics.median(x[0] for x in results[(kind, "--threads 1")])
        for name in ["--threads 1", "default"]:
            rows = results[(kind, name)]
            med = statistics.median(x[0] for x in rows)
            ratio = f"**{med / base:.2f}**" if name == "default" else ""
            print(
                f"| {kind} | {name} | {', '.join(f'{x[0]:.2f}' for x in rows)} | "
                f"{', '.join(f'{x[1]:.2f}' for x in rows)} | {', '.join(f'{x[2]:.1f}' for x in rows)} | "
                f"{med:.2f} | {ratio} |"
            )
    cycles = {x[3] for rows in results.values() for x in rows if x[3] is not None}
    if len(cycles) > 1:
        sys.exit(f"error: simulated cycles differ between runs: {sorted(cycles)}")
    print(f"\nsimulated cycles (every run): {cycles.pop() if cycles else '?'}")


if __name__ == "__main__":
    main()
