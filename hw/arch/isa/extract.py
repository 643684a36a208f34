#!/usr/bin/env python3
"""Extracts the instruction tables (hw/arch/isa/{gfx1030,gfx803}/FAMILY.isa)
from LLVM 19's AMDGPU disassembler. Python 3 standard library only.

For every ISA and encoding family, every value of the opcode field is encoded
with the other fields set to distinct, recognisable register numbers (vdst=v1
or v8, src0=v2/s2, ...; see TEMPLATES), and the whole family is disassembled
in one batched llvm-mc-19 run. Each printed positional operand is mapped back
to the field that produced it by its register number; its width gives the
type, and for gfx1030 a second run in wave64 tells lane masks (one SGPR in
wave32, a pair in wave64) from plain 32-bit operands. Float-vs-integer and
16-bit types come from the mnemonic's type suffixes (a documented heuristic,
see docs/isa-description.md).

usage: extract.py [--out DIR]   (default: the directory of this script)
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layouts as enc  # noqa: E402
import llvm  # noqa: E402

LIT = 0x11223344  # the literal appended by the *_lit templates
KEYWORD_MODS = {"offen", "idxen", "glc", "slc", "dlc", "gds", "lds", "tfe", "addr64", "clamp",
                "da", "unorm", "r128", "a16", "d16", "mul:2", "mul:4", "div:2"}
NAMED_REGS = {"vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "null", "off", "scc"}


def vop3_templates(gfx10, dst=8):
    """All VGPR/SGPR combinations of three, two, one and no sources (LLVM
    rejects nonzero unused source fields on gfx1030), VOP3a first, then VOP3b."""
    out = []
    for sdst in (None, 10):
        for nsrc in (3, 2, 1, 0):
            for mask in range(1 << nsrc):
                t = {"vdst": dst}
                for i, name in enumerate(("src0", "src1", "src2")[:nsrc]):
                    t[name] = (2 + 2 * i) if mask >> i & 1 else 258 + i
                if sdst is not None:
                    t["sdst"] = sdst
                out.append(t)
    return out


def with_subsets(base, optional, lit=False):
    """`base` and every variant of it with a subset of the `optional` fields
    zeroed (LLVM rejects some encodings whose unused fields are not zero),
    fullest first."""
    out = []
    for mask in range(1 << len(optional)):
        t = dict(base)
        for i, name in enumerate(optional):
            if mask >> i & 1:
                t[name] = 0
        out.append((t, lit))
    out.sort(key=lambda x: -sum(1 for k in optional if x[0].get(k)))
    return out


# Per family: (encoding field values, append a literal?) templates, in order of
# preference.
def templates(isa, family):
    gfx10 = isa == "gfx1030"
    if family == "SOP2":
        return with_subsets({"sdst": 4, "ssrc0": 8, "ssrc1": 12}, ["sdst", "ssrc0", "ssrc1"])
    if family == "SOP1":
        return with_subsets({"sdst": 4, "ssrc0": 8}, ["sdst", "ssrc0"])
    if family == "SOPK":
        return (with_subsets({"sdst": 4, "simm16": 0x1234}, ["sdst"])
                + with_subsets({"sdst": 4, "simm16": 0x1234}, ["sdst"], True))
    if family == "SOPC":
        return with_subsets({"ssrc0": 8, "ssrc1": 12}, ["ssrc0", "ssrc1"])
    if family == "SOPP":
        return [({"simm16": 0}, False)]
    if family == "SMEM":
        if gfx10:
            return (with_subsets({"sdata": 4, "sbase": 8, "soffset": 12}, ["sdata", "sbase"])
                    + with_subsets({"sdata": 4, "sbase": 8, "soffset": 0x7D, "offset": 0x30}, ["sdata", "sbase"])
                    + with_subsets({"sdata": 4, "sbase": 8, "soffset": 0x7D}, ["sdata", "sbase"]))
        return (with_subsets({"sdata": 4, "sbase": 8, "imm": 0, "offset": 12}, ["sdata", "sbase"])
                + with_subsets({"sdata": 4, "sbase": 8, "imm": 1, "offset": 0x30}, ["sdata", "sbase"])
                + with_subsets({"sdata": 4, "sbase": 8, "imm": 1, "offset": 0}, ["sdata", "sbase"]))
    if family == "VOP1":
        return (with_subsets({"vdst": 1, "src0": 258}, ["vdst", "src0"])
                + with_subsets({"vdst": 1, "src0": 2}, ["vdst"]))
    if family == "VOP2":
        return [t for lit in (False, True) for s in (258, 2)
                for t in with_subsets({"vdst": 1, "src0": s, "vsrc1": 3}, ["vdst"], lit)]
    if family == "VOPC":
        return [({"src0": 258, "vsrc1": 3}, False), ({"src0": 2, "vsrc1": 3}, False)]
    if family in ("VOP3", "VOP3P"):
        return [(t, False) for t in vop3_templates(gfx10)]
    if family == "DS":
        return [t for g in (0, 1) for t in with_subsets({"vdst": 1, "addr": 2, "data0": 3, "data1": 4, "gds": g},
                                                        ["vdst", "addr", "data0", "data1"])]
    if family in ("FLAT", "GLOBAL", "SCRATCH"):
        return [t for s in (0x7D, 8) for t in with_subsets({"vdst": 1, "addr": 2, "data": 3, "saddr": s},
                                                          ["vdst", "addr", "data"])]
    if family in ("MUBUF", "MTBUF"):
        t = {"vaddr": 2, "vdata": 3, "srsrc": 8, "soffset": 12, "offen": 1}
        if family == "MTBUF" and gfx10:
            t["format"] = 1
        return with_subsets(t, ["vdata", "vaddr", "offen", "srsrc", "soffset"])
    raise ValueError(family)


def field_of(family, kind, num, fields):
    """The table field a printed register (kind 's'/'v'/'ttmp', first number) came from."""
    f = fields
    if kind == "v":
        code = num + 256
        if family in ("VOP1", "VOP2", "VOP3", "VOP3P", "VOPC"):
            for name in ("src0", "src1", "src2"):
                if f.get(name) == code:
                    return name
            if f.get("vsrc1") == num:
                return "src1"
            if f.get("vdst") == num:
                return "vdst"
            return None
        if family == "DS":
            return {1: "vdst", 2: "vaddr", 3: "data0", 4: "data1"}.get(num)
        if family in ("FLAT", "GLOBAL", "SCRATCH"):
            return {1: "vdst", 2: "vaddr", 3: "vdata"}.get(num)
        if family in ("MUBUF", "MTBUF"):
            return {2: "vaddr", 3: "vdata"}.get(num)
        return None
    if kind != "s":
        return None
    if family in ("SOP1", "SOP2", "SOPK", "SOPC"):
        return {4: "sdst", 8: "ssrc0", 12: "ssrc1"}.get(num)
    if family == "SMEM":
        return {4: "sdata", 8: "sbase", 12: "soffset"}.get(num)
    if family in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
        for name in ("src0", "src1", "src2"):
            if f.get(name) == num:
                return name
        if f.get("sdst") == num:
            return "sdst"
        if f.get("vdst") == num:
            return "sdst"  # an SGPR printed from the vdst bits (v_readlane, VOPC in VOP3)
        return None
    if family in ("GLOBAL", "SCRATCH"):
        return "saddr" if num == 8 else None
    if family in ("MUBUF", "MTBUF"):
        return {8: "srsrc", 12: "soffset"}.get(num)
    return None


REG = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")


def split_operands(rest):
    """Splits LLVM's operand text at ', ' outside brackets/parentheses."""
    pieces, depth, cur = [], 0, ""
    i = 0
    while i < len(rest):
        c = rest[i]
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        if c == "," and depth == 0:
            pieces.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        pieces.append(cur.strip())
    return pieces


def is_modifier(word):
    return word in KEYWORD_MODS or re.match(r"^[a-z_]+[0-9]*:", word) is not None and not REG.match(word)


def parse_operands(text):
    """Returns (mnemonic, [operand token]) for a disassembled line: positional
    operands only, named modifiers dropped."""
    parts = text.split(" ", 1)
    mnem = parts[0]
    ops = []
    for piece in split_operands(parts[1]) if len(parts) > 1 else []:
        words = piece.split(" ")
        first = words[0]
        if REG.match(first) or first in NAMED_REGS or first.startswith("|") or first.startswith("-"):
            ops.append(first)
            continue
        kept = [w for w in words if not is_modifier(w)]
        if kept:
            ops.append(" ".join(kept))
    return mnem, ops


SUFFIX = re.compile(r"_(e32|e64|sdwa|dpp|dpp8)$")


def strip_suffix(m):
    return SUFFIX.sub("", m)


def classify(isa, family, fields, tok):
    """(field, register count) of a printed operand token, or (None, 0)."""
    m = REG.match(tok)
    if m:
        kind = m.group(1)
        if m.group(2) is not None:
            num, cnt = int(m.group(2)), 1
        else:
            num, cnt = int(m.group(3)), int(m.group(4)) - int(m.group(3)) + 1
        return field_of(family, kind, num, fields), cnt
    if tok in ("vcc_lo", "vcc"):
        return "vcc", 1 if tok == "vcc_lo" else 2
    if tok == "off":
        if family in ("GLOBAL", "SCRATCH"):
            return "saddr", 2
        return None, 0
    if tok == "null" and family == "SMEM":
        return "soffset", 1
    if tok.startswith("|") or tok.startswith("-") or tok in NAMED_REGS:
        return None, 0
    # a non-register operand
    if "0x11223344" in tok.lower() or tok == str(LIT):
        return "k", 1
    if family in ("SOPK", "SOPP"):
        return "simm16", 0
    if family == "SOPC":
        return "ssrc1", 0  # gfx803 s_set_gpr_idx_on: gpr_idx(...) mode in ssrc1
    if family == "SMEM":
        if tok in ("0x30", "48"):
            return "soffset", 1
        if tok == "4":
            return "sdata", 0  # s_atc_probe & co: a 7-bit immediate in sdata
    return None, 0


TYPE_TOKEN = re.compile(r"^([fiub])(8|16|24|32|64)$")


def scalar_type(tokens, count, float_ok=True):
    """Type of a register operand of `count` dwords given the mnemonic type token."""
    if tokens:
        kind, bits = tokens[0], int(tokens[1:])
        if count == 1 and bits == 16:
            return "f16" if kind == "f" and float_ok else "b16"
        if bits == 32 * count and kind == "f" and float_ok:
            return "f%d" % bits
    return {1: "b32", 2: "b64", 3: "b96", 4: "b128", 5: "b160", 8: "b256", 16: "b512"}[count]


def operand_type(isa, family, mnem, field, count, lanemask):
    if lanemask:
        return "lanemask"
    if field in ("simm16",):
        return "b16"
    if family not in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
        return scalar_type(None, max(count, 1))
    toks = [t for t in mnem.split("_")[1:] if TYPE_TOKEN.match(t)]
    dst_tok = toks[0] if toks else None
    src_tok = toks[-1] if toks else None
    is_dst = field in ("vdst", "sdst")
    tok = dst_tok if is_dst else src_tok
    if field == "k":
        return scalar_type(tok, 1)
    count = max(count, 1)
    # Operands that are integers whatever the mnemonic says.
    if ("_class_" in mnem or mnem.startswith("v_ldexp")) and field == "src1":
        return "b32"  # LLVM: the class mask and the exponent are i32, also for f16
    # 32-bit operands of 16-bit opcodes (LLVM's operand types, checked with llvm-mc).
    if (mnem, field) in (("v_sat_pk_u8_i16", "src0"), ("v_sad_u16", "src2"), ("v_mad_u32_u16", "src2"),
                         ("v_mad_i32_i16", "src2")):
        return "b32"
    if "frexp_exp" in mnem and is_dst:
        return scalar_type(dst_tok, count)
    # Dot products read packed sources; their src2 accumulator has the result type.
    if "_dot" in mnem and field == "src2":
        return scalar_type(dst_tok, count)
    if "_dot" in mnem and tok and tok[1:] in ("8", "4") and count == 1:
        return "b32"
    if mnem.startswith("v_cvt_pk") and is_dst and count == 1 and dst_tok and dst_tok[1:] == "16":
        return "v2f16" if dst_tok and dst_tok[0] == "f" else "v2b16"
    if (family == "VOP3P" or "_dot" in mnem) and not is_dst or mnem.startswith("v_pk_"):
        if tok and tok[1:] == "16" and count == 1 and "mix" not in mnem:
            return "v2f16" if tok[0] == "f" else "v2b16"
    return scalar_type(tok, count)


# gfx803 has no wave32 run to compare with: lane masks are the operands that
# are lane masks in gfx1030's VOPC/VOP3 carry and compare forms.
def gfx803_lanemask(family, mnem, field):
    if field == "vcc":
        return True
    if family == "VOPC" or (family == "VOP3" and mnem.startswith(("v_cmp", "v_cmpx"))):
        return field == "sdst"
    if family == "VOP3":
        if field == "sdst" and mnem.startswith(("v_add_", "v_sub_", "v_subrev_", "v_addc_", "v_subb_",
                                                "v_subbrev_", "v_div_scale", "v_mad_u64", "v_mad_i64")):
            return True
        if field == "src2" and mnem.startswith(("v_cndmask", "v_addc_", "v_subb_", "v_subbrev_")):
            return True
    return False


def extract_family(isa, family):
    """Returns ({opcode number: (mnemonic, [(field, type)])}, [skipped notes])."""
    tpls = templates(isa, family)
    cases, meta = [], []
    for op in range(enc.opcode_range(isa, family)):
        for ti, (fields, lit) in enumerate(tpls):
            f = dict(fields)
            f["op"] = op
            words = enc.build(isa, family, f)
            if lit:
                words = words + [LIT]
            cases.append(words)
            meta.append((op, ti))
    runs = {"w32": llvm.disassemble("gfx1030" if isa == "gfx1030" else "gfx803", cases)}
    if isa == "gfx1030":
        runs["w64"] = llvm.disassemble("gfx1030-w64", cases)
    rows, notes = {}, []
    by_op = {}
    for i, (op, ti) in enumerate(meta):
        by_op.setdefault(op, []).append(i)
    for op, idxs in sorted(by_op.items()):
        first_text = None
        for i in idxs:
            if runs["w32"][i] is None:
                continue
            text = runs["w32"][i][0]
            first_text = first_text or text
            fields = tpls[meta[i][1]][0]
            mnem, toks = parse_operands(text)
            cl = [classify(isa, family, fields, t) for t in toks]
            if any(c[0] is None for c in cl):
                continue
            named = [c[0] for c in cl if c[0] != "vcc"]
            if len(set(named)) != len(named):
                continue
            lane = [False] * len(cl)
            if "w64" in runs:
                if runs["w64"][i] is None:
                    continue
                t64 = runs["w64"][i][0]
                m64, toks64 = parse_operands(t64)
                cl64 = [classify(isa, family, fields, t) for t in toks64]
                if [c[0] for c in cl64] != [c[0] for c in cl]:
                    continue
                lane = [a[1] == 1 and b[1] == 2 for a, b in zip(cl, cl64)]
            stem = strip_suffix(mnem)
            ops = []
            for (field, cnt), lm in zip(cl, lane):
                if isa == "gfx803":
                    lm = gfx803_lanemask(family, stem, field) and cnt == 2
                if field == "vcc":
                    lm = True
                ops.append((field, operand_type(isa, family, stem, field, cnt, lm)))
            rows[op] = (stem, ops)
            break
        else:
            if first_text is not None:
                notes.append("%s %s %d: operands not mapped: %s" % (isa, family, op, first_text))
    return rows, notes


# Rows LLVM decodes whose operand form no template above produces: the printed
# operands are checked by the vector tests like every other row.
# gfx803 `buffer_store_lds_dword s[0:3], s4 lds` has no vaddr/vdata at all.
# gfx1030 `v_illegal` is the all-zero word (VOP2 opcode 0 with every field 0),
# which the VOP2 templates (non-zero vdst/vsrc1) never produce.
SUPPLEMENT = {
    ("gfx803", "MUBUF"): {61: ("buffer_store_lds_dword", [("srsrc", "b128"), ("soffset", "b32")])},
    ("gfx1030", "VOP2"): {0: ("v_illegal", [])},
}


HEADER = """\
# {isa} {family}: opcode number, mnemonic, operands (field:type) in LLVM's print order.
# @generated by hw/arch/isa/extract.py from llvm-mc-19 -mcpu={isa} — do not edit by hand.
# Format: see docs/isa-description.md. Lines: NUMBER MNEMONIC FIELD:TYPE...
"""


def main(argv):
    out = os.path.dirname(os.path.abspath(__file__))
    if len(argv) > 2 and argv[1] == "--out":
        out = argv[2]
    all_notes = []
    for isa in ("gfx1030", "gfx803"):
        os.makedirs(os.path.join(out, isa), exist_ok=True)
        for family in enc.FAMILIES[isa]:
            rows, notes = extract_family(isa, family)
            for op, row in SUPPLEMENT.get((isa, family), {}).items():
                assert op not in rows, "supplement row %s %s %d now extracted" % (isa, family, op)
                rows[op] = row
            all_notes += notes
            lines = [HEADER.format(isa=isa, family=family)]
            for op, (mnem, ops) in sorted(rows.items()):
                lines.append(" ".join([str(op), mnem] + ["%s:%s" % o for o in ops]) + "\n")
            with open(os.path.join(out, isa, family + ".isa"), "w") as f:
                f.writelines(lines)
            print("%s %-7s %4d instructions" % (isa, family, len(rows)), file=sys.stderr)
    with open(os.path.join(out, "skipped.txt"), "w") as f:
        f.write("# Opcodes LLVM decodes whose operands extract.py cannot map to table fields\n")
        f.write("# (not modelled; @generated by hw/arch/isa/extract.py).\n")
        for n in all_notes:
            f.write(n + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
