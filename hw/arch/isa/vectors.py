#!/usr/bin/env python3
"""Generates the LLVM test vectors hw/arch/tests/vectors/{gfx803,gfx1030,gfx1030-w64}/FAMILY.txt.
Python 3 standard library only; needs llvm-mc-19.

Method: for every table row (hw/arch/isa/ISA/FAMILY.isa) and every encoding
form of it (plain; SDWA, DPP16 and, on gfx1030, DPP8 for VOP1/VOP2/VOPC), the
fields the row uses are filled with a deterministic (seeded) spread of values —
SGPRs, VGPRs, ranges, special registers, inline integer and float constants,
literals, modifiers, offsets — and the unused fields are left zero. The
candidates are disassembled in bulk; LLVM's re-encoding of each valid one is
disassembled again and kept only if it round-trips to the same text and
encoding (so every vector is in LLVM's canonical form). The texts are then
assembled in bulk: `asm=` records llvm-mc's encoding where it differs from
WORDS, `noasm` that llvm-mc rejects the text.

Line format:  WORDS | TEXT [| asm=WORDS2 | noasm]
WORDS: the instruction as 32-bit little-endian words, upper-case hex, as
llvm-objdump prints them.

usage: vectors.py [--out DIR] [--isa-dir DIR]
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layouts  # noqa: E402
import llvm  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VOP = ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P")
PER_FORM = 3        # vectors kept per (row, form)
TRIES = 10          # candidates generated per (row, form)

LITERALS = [0x3F800000, 0x40490FDB, 0xC2C80000, 0x12345678, 0xFFFFFFFF, 0x00000041, 0xFFFFFFC0,
            0x3E22F983, 0x00003C00, 0x0000C400, 0x7FC00000, 0x80000000, 0x0000FFFF, 0x3FC90FDB]


def load_rows(isa_dir, isa, family):
    rows = []
    path = os.path.join(isa_dir, isa, family + ".isa")
    if not os.path.exists(path):
        return rows
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        parts = line.split()
        ops = [tuple(p.split(":")) for p in parts[2:]]
        rows.append((int(parts[0]), parts[1], ops))
    return rows


def dwords(ty, wave64):
    return {"b64": 2, "f64": 2, "b96": 3, "b128": 4, "b160": 5, "b256": 8, "b512": 16,
            "lanemask": 2 if wave64 else 1}.get(ty, 1)


class Gen:
    def __init__(self, isa, wave64, seed):
        self.isa = isa
        self.gfx10 = isa == "gfx1030"
        self.wave64 = wave64
        self.rng = random.Random(seed)
        self.literal = None
        self.plain = False  # no modifiers (retry round for rows without vectors)

    def r(self, n):
        return self.rng.randrange(n)

    def chance(self, p):
        return self.rng.random() < p

    def sgpr(self, n):
        """An SGPR-space register code for an n-dword operand (aligned)."""
        top = 104 if self.gfx10 else 100
        kind = self.r(10)
        if kind < 6:
            align = 1 if n == 1 else (2 if n == 2 else 4)
            return self.r((top - n) // align + 1) * align
        if kind == 6:
            return 106  # vcc
        if kind == 7:
            return 126  # exec
        if kind == 8:
            base = 108 if self.gfx10 else 112
            align = 1 if n == 1 else (2 if n == 2 else 4)
            return base + self.r((16 if self.gfx10 else 12) // align) * align
        return self.rng.choice([124, 125, 107, 127] if (self.gfx10 and n == 1) else
                               ([124, 107, 127] if n == 1 else [106, 126]))

    def vgpr(self, n=1):
        return self.r(256 - n + 1)

    def const(self):
        k = self.r(10)
        if k < 5:
            return 128 + self.rng.choice([0, 1, 2, 7, 16, 63, 64, self.r(65)])
        if k < 7:
            return 193 + self.r(16)
        return 240 + self.r(9)

    def special(self):
        return self.rng.choice([235, 236, 237, 238, 251, 252, 253] + ([239] if self.gfx10 else []))

    def src(self, ty, vgpr=True, literal=True, special=True):
        """A source code (VGPRs as 256+n) for a 9- or 8-bit source field."""
        n = dwords(ty, self.wave64)
        k = self.r(20)
        if vgpr and k < 8:
            return 256 + self.vgpr(n)
        if k < 13:
            return self.sgpr(n)
        if k < 17:
            return self.const()
        if k < 18 and special:
            return self.special()
        if literal and self.literal is None:
            self.literal = self.rng.choice(LITERALS + [self.rng.getrandbits(32)])
            return 255
        return self.const()

    def simm16(self):
        return self.rng.choice([0, 1, 2, 3, 0x7F, 0x1F, 0x3F70, 0x7FFF, 0x8000, 0xFFFF, 0xFFFE, 0x10,
                                self.rng.getrandbits(16), self.rng.getrandbits(16), self.r(64)])


def candidate(g, isa, family, row, form):
    """One candidate (words) for a row in a form, or None."""
    num, mnem, ops = row
    types = {f: t for f, t in ops}
    g.literal = None
    f = {"op": num}
    w64 = g.wave64
    has = lambda name: name in types
    gfx10 = g.gfx10

    def n(name):
        return dwords(types.get(name, "b32"), w64)

    if family in ("SOP1", "SOP2", "SOPC", "SOPK"):
        if has("sdst"):
            f["sdst"] = g.sgpr(n("sdst")) if g.r(8) else g.src(types["sdst"], vgpr=False, literal=False,
                                                                   special=False) & 0x7F
        for s in ("ssrc0", "ssrc1"):
            if has(s):
                f[s] = g.src(types[s], vgpr=False)
        if has("simm16"):
            f["simm16"] = g.simm16()
        if has("k"):
            g.literal = g.rng.choice(LITERALS + [g.rng.getrandbits(32)])
    elif family == "SOPP":
        if has("simm16"):
            f["simm16"] = g.simm16() if num != 0 else g.r(16)
    elif family == "SMEM":
        if has("sdata"):
            f["sdata"] = g.sgpr(n("sdata")) if n("sdata") <= 2 else g.r(100 // 4 - n("sdata") // 4 + 1) * 4
            if types.get("sdata") == "b32" and mnem.startswith("s_atc_probe"):
                f["sdata"] = g.r(8)
        if has("sbase"):
            f["sbase"] = g.r(50) * 2 if n("sbase") == 2 else g.r(25) * 4
        if gfx10:
            f["glc"], f["dlc"] = g.r(2), g.r(2) if g.chance(0.3) else 0
            if has("soffset"):
                k = g.r(3)
                if k == 0:
                    f["soffset"], f["offset"] = 0x7D, g.rng.choice([0, 4, 0x10, 0xFFFFC, 0xFFFFF, 0x100000,
                                                                       0x1FFFFC, g.rng.getrandbits(21) & ~3])
                elif k == 1:
                    f["soffset"], f["offset"] = g.rng.choice([g.r(104), 124]), 0
                else:
                    f["soffset"], f["offset"] = g.r(104), g.rng.getrandbits(21) & ~3
            else:
                f["soffset"] = 0x7D
        else:
            f["glc"] = g.r(2) if g.chance(0.3) else 0
            if has("soffset"):
                if g.r(2):
                    f["imm"], f["offset"] = 1, g.rng.choice([0, 4, 0x3FC, 0xFFFFC, g.rng.getrandbits(20)])
                else:
                    f["imm"], f["offset"] = 0, g.rng.choice([g.r(102), 124])
            else:
                f["imm"] = g.r(2)
    elif family in ("VOP1", "VOP2", "VOPC"):
        return vop_e32(g, isa, family, row, form, types, f)
    elif family in ("VOP3", "VOP3P"):
        return vop3(g, family, row, types, f)
    elif family == "DS":
        for name, fld in (("vdst", "vdst"), ("vaddr", "addr"), ("data0", "data0"), ("data1", "data1")):
            if has(name):
                f[fld] = g.vgpr(n(name))
        f["offset0"] = g.rng.choice([0, 0, 1, 4, 0xFF, g.r(256)])
        f["offset1"] = g.rng.choice([0, 0, 1, 0x10, 0xFF, g.r(256)])
        f["gds"] = 1 if g.chance(0.15) or "gws" in mnem else 0
        if g.plain:
            f["offset0"] = f["offset1"] = f["gds"] = 0
    elif family in ("FLAT", "GLOBAL", "SCRATCH"):
        if has("vdst"):
            f["vdst"] = g.vgpr(n("vdst"))
        if has("vdata"):
            f["data"] = g.vgpr(n("vdata"))
        f["glc"], f["slc"] = g.r(2), g.r(2)
        if gfx10:
            f["dlc"] = 1 if g.chance(0.25) else 0
            f["offset"] = g.rng.choice([0, 0, 4, 0x7FF, 0xFFF, 0x800, 0xFFC, g.r(0x1000)])
            if family == "FLAT":
                f["offset"] &= 0x7FF
            f["saddr"] = 0x7D
            if family == "GLOBAL" and g.r(2):
                f["saddr"] = g.r(52) * 2
            if family == "SCRATCH" and g.r(3) == 0:
                f["saddr"] = g.rng.choice([g.r(104), 124])
            if has("vaddr"):
                if family == "SCRATCH" and f["saddr"] != 0x7D:
                    pass
                else:
                    f["addr"] = g.vgpr(2 if family == "GLOBAL" and f["saddr"] == 0x7D else 1)
        else:
            f["tfe"] = 1 if g.chance(0.1) else 0
            if has("vaddr"):
                f["addr"] = g.vgpr(2)
    elif family in ("MUBUF", "MTBUF"):
        if has("vdata"):
            f["vdata"] = g.vgpr(n("vdata") + 1)
        elif family == "MUBUF" and has("srsrc"):
            f["lds"] = 1  # buffer_store_lds_dword: data comes from LDS, there is no vdata
        if has("srsrc"):
            f["srsrc"] = g.r(25) * 4
        if has("soffset"):
            f["soffset"] = g.rng.choice([g.r(102), g.r(102), 124, 128, 129, 0x7D if gfx10 else 128, 193])
        if has("vaddr"):
            f["offen"], f["idxen"] = g.rng.choice([(1, 0), (0, 1), (1, 1), (0, 0)])
            if f["offen"] or f["idxen"]:
                f["vaddr"] = g.vgpr(2)
        f["offset"] = g.rng.choice([0, 0, 4, 0xFFF, g.r(0x1000)])
        f["glc"], f["slc"] = g.r(2), g.r(2)
        if gfx10:
            f["dlc"] = 1 if g.chance(0.25) else 0
        f["tfe"] = 1 if g.chance(0.1) else 0
        if family == "MTBUF":
            f["format"] = g.rng.choice([1, g.r(128), g.r(78)]) if gfx10 else g.r(128)
    words = layouts.build(isa, family, f)
    if g.literal is not None:
        words.append(g.literal)
    return words


def vop_e32(g, isa, family, row, form, types, f):
    num, mnem, ops = row
    has = lambda name: name in types
    w64 = g.wave64
    if family != "VOPC":
        if has("vdst"):
            f["vdst"] = g.vgpr(dwords(types["vdst"], w64))
        elif has("sdst"):
            f["vdst"] = g.sgpr(1)
    if has("src1"):
        f["vsrc1"] = g.vgpr(dwords(types["src1"], w64))
    extra = []
    if form == "plain":
        if has("src0"):
            f["src0"] = g.src(types["src0"], literal=not has("k"))
        if has("k"):
            g.literal = g.rng.choice(LITERALS + [g.rng.getrandbits(32)])
        words = layouts.build(isa, family, f)
        if g.literal is not None:
            words.append(g.literal)
        return words
    if form == "sdwa":
        f["src0"] = 249
        s0 = g.vgpr(dwords(types.get("src0", "b32"), w64))
        s0_sgpr = g.gfx10 and g.chance(0.25)
        if s0_sgpr:
            s0 = g.rng.choice([g.r(104), 106, 124, 126, 128 + g.r(65), 240 + g.r(8)])
        d = s0 | g.r(7) << 8 | g.r(3) << 11 | (1 if g.chance(0.2) else 0) << 13
        if family == "VOPC" and g.gfx10:
            d &= ~0xFF00
            if g.r(2):
                d |= (g.sgpr(2 if w64 else 1) | 0x80) << 8  # sdst + SD bit
        elif g.gfx10 and g.chance(0.2):
            d |= g.r(4) << 14  # omod
        d |= g.r(7) << 16 | g.r(2) << 19 | (g.r(4) if g.chance(0.3) else 0) << 20
        d |= g.r(7) << 24 | g.r(2) << 27 | (g.r(4) if g.chance(0.3) else 0) << 28
        if s0_sgpr:
            d |= 1 << 23
        if family == "VOP1":
            d &= 0x00FFFFFF
        return layouts.build(g.isa, family, f) + [d]
    if form == "dpp16":
        f["src0"] = 250
        s0 = g.vgpr(dwords(types.get("src0", "b32"), w64))
        ctrl = g.rng.choice([g.r(256), g.r(256), 0xE4, 0x101 + g.r(15), 0x111 + g.r(15), 0x121 + g.r(15),
                             0x140, 0x141] + ([0x150 + g.r(16), 0x160 + g.r(16)] if g.gfx10 else
                                              [0x130, 0x134, 0x138, 0x13C, 0x142, 0x143]))
        d = s0 | ctrl << 8 | g.r(2) << 19 | (g.r(16) if g.chance(0.3) else 0) << 20
        if g.gfx10:
            d |= g.r(2) << 18
        d |= g.rng.choice([0xF, 0xF, g.r(16)]) << 24 | g.rng.choice([0xF, 0xF, g.r(16)]) << 28
        return layouts.build(g.isa, family, f) + [d]
    if form == "dpp8":
        fi = g.r(2)
        f["src0"] = 234 if fi else 233
        s0 = g.vgpr(dwords(types.get("src0", "b32"), w64))
        sel = g.rng.choice([0xFAC688, g.rng.getrandbits(24), 0])  # identity, random, all lane 0
        return layouts.build(g.isa, family, f) + [s0 | sel << 8]
    return None


def vop3(g, family, row, types, f):
    num, mnem, ops = row
    has = lambda name: name in types
    w64 = g.wave64
    gfx10 = g.gfx10
    srcs = [s for s in ("src0", "src1", "src2") if has(s)]
    for s in srcs:
        if types[s] == "lanemask":
            f[s] = g.sgpr(dwords("lanemask", w64)) if g.r(4) else 106
        else:
            f[s] = g.src(types[s], literal=gfx10)
    if has("vdst"):
        f["vdst"] = g.vgpr(dwords(types["vdst"], w64))
        if has("sdst"):
            f["sdst"] = g.sgpr(dwords(types["sdst"], w64)) if g.r(4) else 106
    elif has("sdst"):
        f["vdst"] = g.sgpr(dwords(types["sdst"], w64)) if g.r(4) else 106
    mask = sum(1 << i for i, s in enumerate(srcs) if types[s] != "lanemask")
    if g.plain:
        mask = 0
    if family == "VOP3P":
        f["neg"] = g.r(8) & mask if g.chance(0.3) else 0
        f["neg_hi"] = g.r(8) & mask if g.chance(0.3) else 0
        f["op_sel"] = g.r(8) & mask if g.chance(0.4) else 0
        f["op_sel_hi"] = (g.r(8) & mask) if g.chance(0.4) else 7
        f["clamp"] = 1 if g.chance(0.15) else 0
    else:
        f["neg"] = g.r(8) & mask if g.chance(0.3) else 0
        if "sdst" not in f:
            f["abs"] = g.r(8) & mask if g.chance(0.3) else 0
            if gfx10 and g.chance(0.2):
                f["op_sel"] = g.r(16) & (mask | 8)
        f["clamp"] = 1 if g.chance(0.2) and not g.plain else 0
        f["omod"] = g.r(4) if g.chance(0.2) and not g.plain else 0
    words = layouts.build(g.isa, family, f)
    if g.literal is not None:
        words.append(g.literal)
    return words


def forms(isa, family):
    if family in ("VOP1", "VOP2", "VOPC"):
        return ["plain", "sdwa", "dpp16"] + (["dpp8"] if isa == "gfx1030" else [])
    return ["plain"]


def has_lanemask(row):
    return any(t == "lanemask" for _, t in row[2])


def fmt_words(ws):
    return " ".join("%08X" % w for w in ws)


def generate(isa_dir, target):
    isa = "gfx803" if target == "gfx803" else "gfx1030"
    wave64 = target != "gfx1030"
    out = {}
    for family in layouts.FAMILIES[isa]:
        rows = load_rows(isa_dir, isa, family)
        if target == "gfx1030-w64":
            if family not in VOP:
                continue
            rows = [r for r in rows if has_lanemask(r)]
            if not rows:
                continue
        g = Gen(isa, wave64, "%s/%s" % (target, family))
        kept, count, seen = [], {}, set()
        for rnd in (0, 1):
            # Round 1 retries, with more candidates and no modifiers, the rows
            # that got fewer than two vectors.
            todo = [(ri, fm) for ri in range(len(rows)) for fm in forms(isa, family)
                    if rnd == 0 or (fm == "plain" and sum(count.get((ri, f2), 0) for f2 in forms(isa, family)) < 2)]
            g.plain = rnd == 1
            select(target, isa, family, rows, todo, g, TRIES if rnd == 0 else 6 * TRIES, kept, count, seen)
        kept.sort(key=lambda k: (k[0], forms(isa, family).index(k[1])))
        asm = llvm.assemble(target, [k[3] for k in kept])
        lines = []
        for (ri, form, ws, text), a in zip(kept, asm):
            line = "%s | %s" % (fmt_words(ws), text)
            if a is None:
                line += " | noasm"
            elif a != ws:
                line += " | asm=" + fmt_words(a)
            lines.append(line)
        missing = [rows[ri][1] for ri in range(len(rows)) if not any(count.get((ri, fm), 0)
                                                                    for fm in forms(isa, family))]
        out[family] = (lines, missing)
    return out


def select(target, isa, family, rows, todo, g, tries, kept, count, seen):
    """Generates candidates for (row, form) pairs, and appends the canonical,
    valid ones (at most PER_FORM per pair) to `kept`."""
    cands, meta = [], []
    for ri, form in todo:
        local = set()
        for _ in range(tries):
            ws = candidate(g, isa, family, rows[ri], form)
            if ws is None or tuple(ws) in local:
                continue
            if family == "SOPP" and llvm.is_marker_word(ws[0]):
                continue
            local.add(tuple(ws))
            cands.append(ws)
            meta.append((ri, form))
    first = llvm.disassemble(target, cands)
    # Second pass on LLVM's own re-encodings: keep canonical round trips only.
    again = [r[1] if r else [0xBF800000] for r in first]
    second = llvm.disassemble(target, again)
    for i, (r1, r2) in enumerate(zip(first, second)):
        if r1 is None or r2 is None or r1[0] != r2[0] or r2[1] != again[i]:
            continue
        ri, form = meta[i]
        text = r1[0]
        # The decoded opcode must be the row's (LLVM may pick another form).
        stem = text.split(" ")[0]
        for suf in ("_e32", "_e64", "_sdwa", "_dpp8", "_dpp"):
            if stem.endswith(suf):
                stem = stem[: -len(suf)]
        if stem != rows[ri][1] or " | " in text:
            continue
        key = tuple(again[i])
        if key in seen or count.get((ri, form), 0) >= PER_FORM:
            continue
        seen.add(key)
        count[(ri, form)] = count.get((ri, form), 0) + 1
        kept.append((ri, form, again[i], text))


HEADER = """\
# LLVM 19 test vectors: {target} {family}. @generated by hw/arch/isa/vectors.py — do not edit.
# WORDS | TEXT [| asm=WORDS2 | noasm]   (see hw/arch/isa/vectors.py)
"""


def main(argv):
    out = os.path.join(HERE, "..", "tests", "vectors")
    isa_dir = HERE
    args = argv[1:]
    while args:
        if args[0] == "--out":
            out = args[1]
        elif args[0] == "--isa-dir":
            isa_dir = args[1]
        args = args[2:]
    for target in ("gfx803", "gfx1030", "gfx1030-w64"):
        res = generate(isa_dir, target)
        os.makedirs(os.path.join(out, target), exist_ok=True)
        total = 0
        for family, (lines, missing) in res.items():
            with open(os.path.join(out, target, family + ".txt"), "w") as f:
                f.write(HEADER.format(target=target, family=family))
                for m in missing:
                    f.write("# no vector: %s\n" % m)
                for line in lines:
                    f.write(line + "\n")
            total += len(lines)
            print("%-12s %-7s %5d vectors, %d rows without" % (target, family, len(lines), len(missing)),
                  file=sys.stderr)
        print("%-12s total %d" % (target, total), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
