#!/usr/bin/env python3
"""Regenerates the memory-family vectors (DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF)
in this directory from llvm-mc-19: random field values for every opcode the
disassembler knows, kept when LLVM decodes them; each line is
`FAMILY<TAB>hex words<TAB>LLVM's text`, or `-` for random words LLVM rejects.
Deterministic (fixed seed).

    python3 hw/arch/tests/memory/gen.py          # rewrite the .txt files
    python3 hw/arch/tests/memory/gen.py --check  # exit 1 if they would change
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SENTINEL = 0xBF800007  # s_nop 7 on both ISAs
PER_OPCODE = 12
SKIP = {"buffer_store_lds_dword"}


def words_hex(words):
    return ",".join(hex((w >> (8 * i)) & 0xFF) for w in words for i in range(4))


def disassemble(cpu, insts):
    """llvm-objdump-19's text for each instruction (list of dwords), None when LLVM
    rejects it. The words go into an object file (a sentinel after each
    instruction); objdump's `// ADDRESS: WORDS` comments say where each decoded
    instruction starts, so a rejected one cannot desynchronise the rest."""
    dwords = []
    starts = []
    for ws in insts:
        starts.append(len(dwords) * 4)
        dwords.extend(ws)
        # Three sentinels: an instruction LLVM decodes from a rejected one's second
        # word (at most 12 bytes) ends before the next instruction starts.
        dwords.extend([SENTINEL] * 3)
    src = ".text\n" + "".join(f".long {w:#010x}\n" for w in dwords)
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "v.o")
        subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=" + cpu, "-filetype=obj", "-o", obj],
                       input=src, text=True, check=True)
        dump = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=" + cpu, obj],
                              capture_output=True, text=True, check=True).stdout
    at = {}
    for line in dump.splitlines():
        text, sep, comment = line.rpartition("// ")
        if not sep or ":" not in comment:
            continue
        addr, _, words = comment.strip().partition(":")
        text = text.strip()
        if text.startswith(".long"):
            continue
        at[int(addr, 16)] = (text, len(words.split()))
    out = []
    for ws, start in zip(insts, starts):
        hit = at.get(start)
        out.append(hit[0] if hit and hit[1] == len(ws) else None)
    return out


def assemble(cpu, texts):
    """llvm-mc-19's encoding (list of bytes) of each line, None where it reports an error."""
    r = subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"],
                       input="\n".join(texts), capture_output=True, text=True, check=False)
    failed = set()
    for line in r.stderr.splitlines():
        if line.startswith("<stdin>:") and ": error:" in line:
            failed.add(int(line.split(":")[1]) - 1)
    encodings = iter(
        [int(b, 16) for b in line.split("encoding: [")[1].rstrip("]").split(",")]
        for line in r.stdout.splitlines() if "encoding: [" in line)
    return [None if i in failed else next(encodings) for i in range(len(texts))]


def rnd_vgpr(rng):
    # Zero half the time: LLVM rejects nonzero fields an instruction does not use.
    return rng.choice([0, 0, 0, 0, 0, 1, 2, 5, 17, 100, 200, 250, rng.randrange(256)])


def ds_words(cpu, op, rng):
    shift, gds_bit = (18, 17) if cpu == "gfx1030" else (17, 16)
    offset = rng.choice([0, 0, 1, 4, 0x100, 0xFFFF, rng.randrange(0x10000), 0x8000 | rng.randrange(256)])
    gds = rng.random() < 0.2
    w0 = (0x36 << 26) | (op << shift) | (int(gds) << gds_bit) | offset
    return [w0, rnd_vgpr(rng) | rnd_vgpr(rng) << 8 | rnd_vgpr(rng) << 16 | rnd_vgpr(rng) << 24]


def flat_words(cpu, seg, op, rng):
    glc, slc = rng.random() < 0.4, rng.random() < 0.3
    w0 = (0x37 << 26) | (op << 18) | (int(glc) << 16) | (int(slc) << 17)
    if cpu == "gfx1030":
        offset = rng.choice([0, 0, 4, 2047, 0x800, 0xFFF, rng.randrange(0x1000)])
        w0 |= offset | (int(rng.random() < 0.3) << 12) | (seg << 14) | (int(rng.random() < 0.05) << 13)
        saddr = 0x7D if seg == 0 and rng.random() < 0.9 else rng.choice([0x7D, 0x7D, 0x7F, 0, 2, 3, 10, 104, 105, 106, 108, 124, 126, rng.randrange(128)])
        return [w0, rnd_vgpr(rng) | rnd_vgpr(rng) << 8 | saddr << 16 | rnd_vgpr(rng) << 24]
    return [w0 | rng.choice([0, 0, 0, 4, 0xFFF]), rnd_vgpr(rng) | rnd_vgpr(rng) << 8 | rnd_vgpr(rng) << 24]


def buf_words(cpu, family, op, rng):
    offen, idxen, glc = rng.random() < 0.4, rng.random() < 0.3, rng.random() < 0.3
    slc, tfe, lds = rng.random() < 0.3, rng.random() < 0.1, rng.random() < 0.1
    dlc = cpu == "gfx1030" and rng.random() < 0.3
    offset = rng.choice([0, 0, 4, 4095, rng.randrange(4096)])
    w0 = offset | int(offen) << 12 | int(idxen) << 13 | int(glc) << 14
    srsrc = rng.choice([0, 1, 2, 8, 25, 27, 28, 30, rng.randrange(32)])
    soffset = rng.choice([0, 4, 7, 101, 105, 106, 124, 125, 126, 128, 129, 192, 193, 208, 240, 242, 248, rng.randrange(256)])
    vaddr = rnd_vgpr(rng) if offen or idxen else 0
    vdata = rnd_vgpr(rng) if not lds else 0
    w1 = vaddr | vdata << 8 | srsrc << 16 | int(tfe) << 23 | soffset << 24
    if family == "MUBUF":
        w0 |= 0x38 << 26 | (op & 0x7F) << 18 | int(lds) << 16
        if cpu == "gfx1030":
            w0 |= (op >> 7) << 25 | int(dlc) << 15
            w1 |= int(slc) << 22
        else:
            w0 |= int(slc) << 17
    else:
        fmt = rng.choice([1, 0, 22, 77, 4 | 7 << 4, 127, rng.randrange(128)])
        w0 |= 0x3A << 26 | fmt << 19
        w1 |= int(slc) << 22
        if cpu == "gfx1030":
            w0 |= (op & 7) << 16 | int(dlc) << 15
            w1 |= (op >> 3) << 21
        else:
            w0 |= op << 15
    return [w0, w1]


def families(cpu):
    out = [("DS", 256, lambda op, rng: ds_words(cpu, op, rng))]
    if cpu == "gfx1030":
        for name, seg in (("FLAT", 0), ("SCRATCH", 1), ("GLOBAL", 2)):
            out.append((name, 128, lambda op, rng, seg=seg: flat_words(cpu, seg, op, rng)))
    else:
        out.append(("FLAT", 128, lambda op, rng: flat_words(cpu, 0, op, rng)))
    out.append(("MUBUF", 256 if cpu == "gfx1030" else 128, lambda op, rng: buf_words(cpu, "MUBUF", op, rng)))
    out.append(("MTBUF", 16, lambda op, rng: buf_words(cpu, "MTBUF", op, rng)))
    return out


def sweeps(cpu):
    """Every value of the fields with many printing cases: MTBUF format, MUBUF
    soffset and srsrc, GLOBAL/SCRATCH saddr."""
    out = []
    for fmt in range(128):
        if cpu == "gfx1030":
            out.append(("MTBUF", [0x3A << 26 | fmt << 19 | 1 << 12 | 4, 0x04000201]))
        else:
            out.append(("MTBUF", [0x3A << 26 | fmt << 19 | 1 << 12 | 4, 0x04000201]))
    load_dword = 12 if cpu == "gfx1030" else 20
    for code in range(256):
        out.append(("MUBUF", [0x38 << 26 | load_dword << 18 | 1 << 12, code << 24 | 0x00000201]))
    for quad in range(32):
        out.append(("MUBUF", [0x38 << 26 | load_dword << 18, 0x04000100 | quad << 16]))
    if cpu == "gfx1030":
        for code in range(128):
            out.append(("GLOBAL", [0x37 << 26 | 12 << 18 | 2 << 14, 0x03000001 | code << 16]))
            out.append(("SCRATCH", [0x37 << 26 | 12 << 18 | 1 << 14, 0x03000000 | code << 16]))
    return out


def rejected(cpu, rng, count):
    """Random words of the memory families that LLVM rejects (text `-`): the
    decoder must reject them too, not print something LLVM would not."""
    majors = {"DS": 0x36, "FLAT": 0x37, "MUBUF": 0x38, "MTBUF": 0x3A}
    insts = []
    for _ in range(count * 6):
        fam = rng.choice(sorted(majors))
        w0 = majors[fam] << 26 | rng.getrandbits(26)
        w1 = rng.getrandbits(32)
        for shift in (0, 8, 16, 24):
            if rng.random() < 0.5:
                w1 &= ~(0xFF << shift)
        if rng.random() < 0.5:
            w0 &= ~0x3FFF
        insts.append((fam, [w0, w1]))
    texts = disassemble(cpu, [ws for _, ws in insts])
    out = [f"{fam}\t{' '.join(f'{w:08x}' for w in ws)}\t-"
           for (fam, ws), text in zip(insts, texts) if text is None]
    return out[:count]


def generate(cpu):
    rng = random.Random(f"gpusim-memory-{cpu}")
    lines = []
    lines.extend(rejected(cpu, rng, 1500))
    swept = sweeps(cpu)
    texts = disassemble(cpu, [ws for _, ws in swept])
    again = assemble(cpu, [t or "s_nop 0" for t in texts])
    for (fam, ws), text, enc in zip(swept, texts, again):
        if text and "/*" not in text and enc == [(w >> (8 * k)) & 0xFF for w in ws for k in range(4)]:
            lines.append(f"{fam}\t{' '.join(f'{w:08x}' for w in ws)}\t{text}")
    for name, count, make in families(cpu):
        insts = [(name, make(op, rng)) for op in range(count) for _ in range(PER_OPCODE * 4)]
        texts = disassemble(cpu, [ws for _, ws in insts])
        # Keep only canonical encodings: LLVM's assembler must give the same bytes
        # back (LLVM's decoder ignores some unused fields, which then cannot round-trip).
        again = assemble(cpu, [t or "s_nop 0" for t in texts])
        kept = {}
        for (fam, ws), text, enc in zip(insts, texts, again):
            if enc != [(w >> (8 * k)) & 0xFF for w in ws for k in range(4)]:
                continue
            # Keep instructions of this family only (random bits may hit other encodings).
            # LLVM prints some invalid register fields with a /*Invalid register*/ note: not vectors.
            if text is None or "/*" in text or not text.split()[0].startswith(("ds_", "flat_", "global_", "scratch_", "buffer_", "tbuffer_")):
                continue
            key = text.split()[0]
            # gfx803 buffer_store_lds_dword has no table row yet (extract.py cannot
            # produce its `srsrc, soffset lds` form); mubuf.rs handles it once it has.
            if key in SKIP:
                continue
            if len(kept.setdefault(key, [])) < PER_OPCODE:
                kept[key].append(f"{fam}\t{' '.join(f'{w:08x}' for w in ws)}\t{text}")
        for key in sorted(kept):
            lines.extend(kept[key])
    return "\n".join(lines) + "\n"


def main():
    check = "--check" in sys.argv
    drift = False
    for cpu in ("gfx803", "gfx1030"):
        path = os.path.join(HERE, f"{cpu}.txt")
        text = generate(cpu)
        if check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    print(f"{path} is out of date", file=sys.stderr)
                    drift = True
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    sys.exit(1 if drift else 0)


if __name__ == "__main__":
    main()
