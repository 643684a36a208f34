#!/usr/bin/env python3
"""Renders the multi-dispatch program workloads (workloads/programs/T/*.yaml)
and their input/expected data (workloads/programs/data/). The expected files
are computed here, independently of the corpus's Rust references (which the
`reference: corpus` checks replay step by step): a true BFS by queue, and
Python's sort. Deterministic (fixed seeds); run from anywhere:

    python3 workloads/programs/render.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
TARGETS = ["gfx803", "gfx1030", "gfx1030-w64"]
INF = 0xFFFFFFFF


def u32s(path, values):
    with open(os.path.join(DATA, path), "wb") as f:
        f.write(struct.pack("<%dI" % len(values), *values))


def flow(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def bitonic(target):
    n = 1024
    steps = []
    k = 2
    while k <= n:
        j = k // 2
        while j >= 1:
            steps.append((j, k))
            j //= 2
        k *= 2
    lines = [
        "# A whole bitonic sort of 1024 keys: every (j, k) compare-exchange step",
        "# of the network as its own dispatch of the corpus kernel bitonic_step,",
        "# in place on one buffer (rendered by workloads/programs/render.py).",
        f"kernel: {{ corpus: bitonic_step, target: {target} }}",
        "grid: 1024",
        "workgroup: 256",
        "buffers:",
        "  - { name: data, type: u32, length: 1024, init: { file: ../data/bitonic_in.bin } }",
        "steps:",
    ]
    for j, k in steps:
        lines.append(
            f"  - {{ name: j{j}_k{k}, args: [ {{ buffer: data }}, {{ name: j, u32: {j} }}, {{ name: k, u32: {k} }} ] }}"
        )
    lines += [
        "checks:",
        "  - reference: corpus",
        "  - { buffer: data, expected: ../data/bitonic_sorted.bin }",
        "  # After the first merge stage the pairs are sorted alternately.",
        "  - { reference: corpus, after: j1_k2 }",
    ]
    return "\n".join(lines) + "\n"


def bfs(target, graph):
    row_ptr, cols, dist0, n = graph
    lines = [
        "# Breadth-first search to completion: the corpus kernel bfs_relax sweeps",
        "# dist_in -> dist_out, the buffers swap after every sweep (ping-pong), the",
        "# host clears `changed` before each one, and the program stops when a",
        "# sweep changes nothing (rendered by workloads/programs/render.py).",
        f"kernel: {{ corpus: bfs_relax, target: {target} }}",
        f"grid: {n}",
        "workgroup: 64",
        "buffers:",
        f"  - {{ name: row_ptr, type: u32, length: {n + 1}, init: {{ file: ../data/bfs_row_ptr.bin }} }}",
        f"  - {{ name: cols, type: u32, length: {len(cols)}, init: {{ file: ../data/bfs_cols.bin }} }}",
        f"  - {{ name: dist_in, type: u32, length: {n}, init: {{ file: ../data/bfs_dist0.bin }} }}",
        f"  - {{ name: dist_out, type: u32, length: {n} }}",
        "  - { name: changed, type: u32, length: 1 }",
        "args:",
        "  - { name: row_ptr, buffer: row_ptr }",
        "  - { name: cols, buffer: cols }",
        "  - { name: dist_in, buffer: dist_in }",
        "  - { name: dist_out, buffer: dist_out }",
        "  - { name: changed, buffer: changed }",
        f"  - {{ name: n, u32: {n} }}",
        "steps:",
        "  - name: relax",
        "    repeat: 200",
        "    write: [ { buffer: changed, index: 0, value: 0 } ]",
        "    swap: [dist_in, dist_out]",
        "    until: { buffer: changed, index: 0, eq: 0 }",
        "checks:",
        "  - reference: corpus",
        "  # The last sweep's result is in dist_in (swapped after it).",
        "  - { buffer: dist_in, expected: ../data/bfs_dist.bin }",
    ]
    return "\n".join(lines) + "\n"


def stencil(target):
    w, h = 64, 32
    lines = [
        "# An iterative 5-point stencil (Jacobi smoothing) with ping-pong buffers:",
        "# 12 sweeps of the corpus kernel stencil2d, `a` and `b` swapped after",
        "# each, checked after the first 4 and at the end (rendered by",
        "# workloads/programs/render.py).",
        f"kernel: {{ corpus: stencil2d, target: {target} }}",
        f"grid: [{w}, {h}]",
        "workgroup: [64, 4]",
        "buffers:",
        f"  - {{ name: a, type: f32, length: {w * h}, init: {{ random: {{ seed: 41, min: -1.0, max: 1.0 }} }} }}",
        f"  - {{ name: b, type: f32, length: {w * h} }}",
        f"args: [ {{ name: in, buffer: a }}, {{ name: out, buffer: b }}, {{ name: width, u32: {w} }}, {{ name: height, u32: {h} }} ]",
        "steps:",
        "  - { name: first, repeat: 4, swap: [a, b] }",
        "  - { name: rest, repeat: 8, swap: [a, b] }",
        "checks:",
        "  - { reference: corpus, after: first }",
        "  - reference: corpus",
    ]
    return "\n".join(lines) + "\n"


def make_graph():
    rnd = random.Random(2026)
    n = 1024
    adj = [[] for _ in range(n)]
    # A ring with a few random chords: a long diameter (tens of sweeps) and
    # a handful of vertices left unreached (no edges to them).
    unreached = set(rnd.sample(range(1, n), 8))
    for v in range(n):
        if v in unreached:
            continue
        for u in ((v - 1) % n, (v + 1) % n):
            if u not in unreached:
                adj[v].append(u)
        if rnd.random() < 0.03:
            u = rnd.randrange(n)
            if u not in unreached:
                adj[v].append(u)
                adj[u].append(v)
    row_ptr = [0]
    cols = []
    for v in range(n):
        cols += adj[v]
        row_ptr.append(len(cols))
    dist0 = [INF] * n
    dist0[0] = 0
    # The independent answer: a queue BFS over the same (symmetric) edges.
    dist = [INF] * n
    dist[0] = 0
    queue = [0]
    for v in queue:
        for u in adj[v]:
            if dist[u] == INF:
                dist[u] = dist[v] + 1
                queue.append(u)
    return (row_ptr, cols, dist0, n), dist


def main():
    os.makedirs(DATA, exist_ok=True)
    rnd = random.Random(1024)
    keys = [rnd.randrange(1 << 20) for _ in range(1024)]
    u32s("bitonic_in.bin", keys)
    u32s("bitonic_sorted.bin", sorted(keys))
    graph, dist = make_graph()
    u32s("bfs_row_ptr.bin", graph[0])
    u32s("bfs_cols.bin", graph[1])
    u32s("bfs_dist0.bin", graph[2])
    u32s("bfs_dist.bin", dist)
    for t in TARGETS:
        d = os.path.join(HERE, t)
        os.makedirs(d, exist_ok=True)
        for name, text in (
            ("bitonic_sort", bitonic(t)),
            ("bfs", bfs(t, graph)),
            ("stencil_pingpong", stencil(t)),
        ):
            with open(os.path.join(d, name + ".yaml"), "w") as f:
                f.write(text)
    print("rendered", len(TARGETS) * 3, "workloads")


if __name__ == "__main__":
    main()
