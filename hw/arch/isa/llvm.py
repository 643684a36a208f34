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
# stream, so a case that decodes longer than intended swallows padding, not the
# next case. The padding of case i is `s_nop 0x8000|(i & 0x7fff)` (both ISAs),
# which identifies the case; vectors.py never generates s_nop with bit 15 set.
PAD_LEN = 3
MARKER = 0xBF808000


def is_marker_word(w):
    return w & 0xFFFF8000 == MARKER


def disassemble(target, cases):
    """cases: list of word lists. Returns one entry per case: (text, words)
    when the case decodes as exactly one instruction consuming exactly its
    bytes with no diagnostic, else None. `text` is the mnemonic and operands,
    single-spaced after the mnemonic as LLVM prints them; `words` is LLVM's
    re-encoding of the decoded instruction, which differs from the case when
    the case sets bits LLVM ignores or has a literal LLVM would inline."""
    lines = [",".join("0x%02x" % b for b in words_to_bytes(ws + [MARKER | (i & 0x7FFF)] * PAD_LEN))
             for i, ws in enumerate(cases)]
    out, err = _run(_args(target) + ["--disassemble"], "\n".join(lines) + "\n")
    bad = set()
    for line in err.splitlines():
        m = _WARN.match(line)
        if m:
            bad.add(int(m.group(1)) - 1)
    # Printed encodings are re-encodings (their size can differ from the bytes
    # consumed), so cases are delimited by their markers: instructions after
    # case i-1's markers and before case i's belong to case i; a case that
    # swallowed padding is followed by fewer than PAD_LEN markers.
    groups = [[] for _ in cases]
    markers = [0] * len(cases)
    last = -1  # the case whose markers were seen last
    for line in out.splitlines():
        m = _ENC.match(line)
        if not m:
            continue
        enc = [int(x, 16) for x in m.group(2).split(",") if x.strip()]
        if len(enc) == 4 and is_marker_word(bytes_to_words(enc)[0]):
            idx = bytes_to_words(enc)[0] & 0x7FFF
            j = max(last, 0)
            while j % 0x8000 != idx:
                j += 1
            if j >= len(cases):
                raise RuntimeError("llvm-mc output out of step with its input")
            markers[j] += 1
            last = j
            continue
        if last + 1 < len(cases):
            groups[last + 1].append((m.group(1), enc))
    results = []
    for i, group in enumerate(groups):
        ok = i not in bad and len(group) == 1 and markers[i] == PAD_LEN and "/*" not in group[0][0]
        ok = ok and len(group[0][1]) % 4 == 0
        results.append((normalize(group[0][0]), bytes_to_words(group[0][1])) if ok else None)
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
