"""Batch drivers for llvm-mc-19 (disassembler and assembler), shared by
extract.py and vectors.py. Python 3 standard library only.

One llvm-mc process handles a whole batch: every case is one input line, and
the outputs are matched back to their lines by the encodings llvm-mc prints
(`-show-encoding`) and by the line numbers of its warnings.
"""

import os
import re
import subprocess
import tempfile

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-19")

# (llvm-mc -mcpu, extra -mattr) per target name used in the vector tree.
TARGETS = {
    "gfx803": ("gfx803", None),
    "gfx1030": ("gfx1030", "+wavefrontsize32"),
    "gfx1030-w64": ("gfx1030", "+wavefrontsize64"),
}

_ENC = re.compile(r"^\s*(.*?)\s*;\s*encoding:\s*\[([^\]]*)\]")
_WARN = re.compile(r"^[^:]*:(\d+):(\d+):\s*(warning|error):\s*(.*)$")


def _args(target):
    cpu, attr = TARGETS[target]
    args = [LLVM_MC, "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"]
    if attr:
        args.append("-mattr=" + attr)
    return args


def words_to_bytes(words):
    out = []
    for w in words:
        out += [w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, (w >> 24) & 0xFF]
    return out


def bytes_to_words(bs):
    return [bs[i] | bs[i + 1] << 8 | bs[i + 2] << 16 | bs[i + 3] << 24 for i in range(0, len(bs), 4)]


def _run(args, text):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run(args + [path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    return p.stdout, p.stderr


# Padding after every case: llvm-mc disassembles its whole input as one byte
# stream, so a case that decodes longer than intended swallows the padding, not
# the next case. `s_nop 0xabc` on both ISAs; vectors.py never generates it.
MARKER = 0xBF800ABC
PAD = [MARKER] * 3


def disassemble(target, cases):
    """cases: list of word lists. Returns one entry per case: (text, words)
    when the case decodes as exactly one instruction of exactly its size with
    no diagnostic, else None. `text` is the mnemonic and operands, single-spaced
    after the mnemonic as LLVM prints them; `words` is LLVM's re-encoding of
    the decoded instruction, which differs from the case when the case sets
    bits LLVM ignores (unused fields)."""
    lines, starts, pos = [], [], 0
    for ws in cases:
        lines.append(",".join("0x%02x" % b for b in words_to_bytes(ws + PAD)))
        starts.append(pos)
        pos += 4 * (len(ws) + len(PAD))
    total = pos
    out, err = _run(_args(target) + ["--disassemble"], "\n".join(lines) + "\n")
    # Stream offsets of undecodable dwords; llvm-mc skips 4 bytes at each.
    bad = set()
    for line in err.splitlines():
        m = _WARN.match(line)
        if m:
            bad.add(starts[int(m.group(1)) - 1] + (int(m.group(2)) - 1) // 5)
    decoded = []
    for line in out.splitlines():
        m = _ENC.match(line)
        if m:
            enc = [int(x, 16) for x in m.group(2).split(",") if x.strip()]
            decoded.append((m.group(1), enc))
    # Walk the stream as llvm-mc did, recording where each output started.
    at, k, p = {}, 0, 0
    while p < total:
        if p in bad:
            p += 4
            continue
        if k >= len(decoded):
            break
        at[p] = decoded[k]
        p += len(decoded[k][1])
        k += 1
    if k != len(decoded) or p != total:
        raise RuntimeError("llvm-mc output out of step with its input (%d/%d outputs)" % (k, len(decoded)))
    results = []
    for i, ws in enumerate(cases):
        start, size = starts[i], 4 * len(ws)
        r = at.get(start)
        ok = (r is not None and len(r[1]) == size and (start + size) in at
              and not any(q in bad for q in range(start, start + size, 4)) and "/*" not in r[0])
        results.append((normalize(r[0]), bytes_to_words(r[1])) if ok else None)
    return results


def normalize(text):
    """LLVM pads between mnemonic and operands with spaces; keep one space."""
    text = text.strip()
    parts = text.split(None, 1)
    return parts[0] if len(parts) == 1 else parts[0] + " " + parts[1].strip()


def assemble(target, texts):
    """Assembles each text line; returns per line the word list, or None when
    llvm-mc rejects it."""
    out, err = _run(_args(target), "\n".join(texts) + "\n")
    bad = set()
    for line in err.splitlines():
        m = _WARN.match(line)
        if m and m.group(3) == "error":
            bad.add(int(m.group(1)) - 1)
    encs = []
    for line in out.splitlines():
        m = _ENC.match(line)
        if m:
            encs.append([int(x, 16) for x in m.group(2).split(",") if x.strip()])
    results = []
    k = 0
    for i in range(len(texts)):
        if i in bad:
            results.append(None)
            continue
        if k >= len(encs):
            results.append(None)
            continue
        enc = encs[k]
        k += 1
        results.append(bytes_to_words(enc) if len(enc) % 4 == 0 else None)
    return results
