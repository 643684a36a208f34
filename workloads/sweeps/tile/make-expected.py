#!/usr/bin/env python3
"""Writes matvec_tile_y.bin: y = A x mod 2^32 for matvec_tile.yaml's inits
(a[i] = 1 + 7 i, x[k] = 3 + 5 k, n = 256)."""
import struct, pathlib
n = 256
M = 1 << 32
x = [(3 + 5 * k) % M for k in range(n)]
y = []
for r in range(n):
    acc = 0
    for k in range(n):
        acc = (acc + ((1 + 7 * (r * n + k)) % M) * x[k]) % M
    y.append(acc)
out = pathlib.Path(__file__).with_name("matvec_tile_y.bin")
out.write_bytes(struct.pack(f"<{n}I", *y))
