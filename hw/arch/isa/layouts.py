"""Bit layouts of the encoding families of gfx1030 (RDNA2) and gfx803 (GCN3),
as far as extract.py and vectors.py need them to synthesise instruction words.
Sources: AMD "RDNA2 Instruction Set Architecture" and "AMD GCN3 ISA" reference
guides (microcode formats chapter), cross-checked against llvm-mc-19.

build(isa, family, f) takes a dict of field values (missing fields are 0) and
returns the instruction as a list of 32-bit words (without any literal).
Register-valued fields hold the encoded value (VGPR fields: the VGPR number;
9-bit source fields: the unified source code, VGPRs at 256+).
"""

FAMILIES = {
    "gfx1030": ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC",
                "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF"],
    "gfx803": ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC",
               "VOP3", "DS", "FLAT", "MUBUF", "MTBUF"],
}

# Opcode numbers enumerated per family: the width of the opcode field. SOP2
# stops below 0x60 (higher values select SOPK/SOP1/SOPC/SOPP), VOP2 below 0x3e
# (0x3e/0x3f select VOPC/VOP1).
OPCODE_RANGE = {
    "SOP1": 256, "SOP2": 0x60, "SOPK": 29, "SOPC": 128, "SOPP": 128, "SMEM": 256,
    "VOP1": 256, "VOP2": 0x3e, "VOPC": 256, "VOP3": 1024, "VOP3P": 128, "DS": 256,
    "FLAT": 128, "GLOBAL": 128, "SCRATCH": 128, "MUBUF": 256, "MTBUF": 16,
}


def opcode_range(isa, family):
    """Opcode numbers to enumerate: gfx803 MUBUF ignores bit 25, which gfx1030
    uses as opcode bit 7 (the d16 loads/stores)."""
    if isa == "gfx803" and family == "MUBUF":
        return 128
    return OPCODE_RANGE[family]


def _g(f, name, default=0):
    return f.get(name, default)


def build(isa, family, f):
    g = lambda n, d=0: _g(f, n, d)
    op = g("op")
    gfx10 = isa == "gfx1030"
    if family == "SOP2":
        return [0x80000000 | op << 23 | g("sdst") << 16 | g("ssrc1") << 8 | g("ssrc0")]
    if family == "SOPK":
        return [0xB0000000 | op << 23 | g("sdst") << 16 | g("simm16")]
    if family == "SOP1":
        return [0xBE800000 | g("sdst") << 16 | op << 8 | g("ssrc0")]
    if family == "SOPC":
        return [0xBF000000 | op << 16 | g("ssrc1") << 8 | g("ssrc0")]
    if family == "SOPP":
        return [0xBF800000 | op << 16 | g("simm16")]
    if family == "SMEM":
        if gfx10:
            # offset: signed 21 bits; soffset 0x7d (null) = none.
            return [0xF4000000 | op << 18 | g("glc") << 16 | g("dlc") << 14 | g("sdata") << 6 | g("sbase") >> 1,
                    (g("soffset", 0x7D) << 25) | (g("offset") & 0x1FFFFF)]
        # gfx803: imm=1 -> 20-bit unsigned byte offset, imm=0 -> offset[7:0] is an SGPR.
        return [0xC0000000 | op << 18 | g("imm") << 17 | g("glc") << 16 | g("sdata") << 6 | g("sbase") >> 1,
                g("offset") & 0xFFFFF]
    if family == "VOP1":
        return [0x7E000000 | g("vdst") << 17 | op << 9 | g("src0")]
    if family == "VOP2":
        return [op << 25 | g("vdst") << 17 | g("vsrc1") << 9 | g("src0")]
    if family == "VOPC":
        return [0x7C000000 | op << 17 | g("vsrc1") << 9 | g("src0")]
    if family == "VOP3":
        # bits 14:8: VOP3a op_sel[14:11] (gfx10) + abs[10:8], or VOP3b sdst.
        mid = g("sdst") if "sdst" in f else (g("op_sel") << 11 | g("abs") << 8)
        w0 = (0xD4000000 if gfx10 else 0xD0000000) | op << 16 | g("clamp") << 15 | mid << 8 | g("vdst")
        w1 = g("neg") << 29 | g("omod") << 27 | g("src2") << 18 | g("src1") << 9 | g("src0")
        return [w0, w1]
    if family == "VOP3P":
        hi = g("op_sel_hi", 7)
        w0 = 0xCC000000 | op << 16 | g("clamp") << 15 | (hi >> 2 & 1) << 14 | g("op_sel") << 11 \
            | g("neg_hi") << 8 | g("vdst")
        w1 = g("neg") << 29 | (hi & 3) << 27 | g("src2") << 18 | g("src1") << 9 | g("src0")
        return [w0, w1]
    if family == "DS":
        if gfx10:
            w0 = 0xD8000000 | op << 18 | g("gds") << 17 | g("offset1") << 8 | g("offset0")
        else:
            w0 = 0xD8000000 | op << 17 | g("gds") << 16 | g("offset1") << 8 | g("offset0")
        return [w0, g("vdst") << 24 | g("data1") << 16 | g("data0") << 8 | g("addr")]
    if family in ("FLAT", "GLOBAL", "SCRATCH"):
        if gfx10:
            seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}[family]
            w0 = 0xDC000000 | op << 18 | g("slc") << 17 | g("glc") << 16 | seg << 14 | g("lds") << 13 \
                | g("dlc") << 12 | (g("offset") & 0xFFF)
            return [w0, g("vdst") << 24 | g("saddr", 0x7D) << 16 | g("data") << 8 | g("addr")]
        w0 = 0xDC000000 | op << 18 | g("slc") << 17 | g("glc") << 16
        return [w0, g("vdst") << 24 | g("tfe") << 23 | g("data") << 8 | g("addr")]
    if family == "MUBUF":
        w0 = 0xE0000000 | op << 18 | g("lds") << 16 | g("glc") << 14 | g("idxen") << 13 | g("offen") << 12 \
            | (g("offset") & 0xFFF)
        w1 = g("soffset") << 24 | g("tfe") << 23 | (g("srsrc") >> 2) << 16 | g("vdata") << 8 | g("vaddr")
        if gfx10:
            w0 |= g("dlc") << 15
            w1 |= g("slc") << 22
        else:
            w0 |= g("slc") << 17
        return [w0, w1]
    if family == "MTBUF":
        base = g("glc") << 14 | g("idxen") << 13 | g("offen") << 12 | (g("offset") & 0xFFF)
        w1 = g("soffset") << 24 | g("tfe") << 23 | g("slc") << 22 | (g("srsrc") >> 2) << 16 \
            | g("vdata") << 8 | g("vaddr")
        if gfx10:
            w0 = 0xE8000000 | g("format") << 19 | (op & 7) << 16 | g("dlc") << 15 | base
            w1 |= (op >> 3) << 21
        else:
            w0 = 0xE8000000 | g("format") << 19 | op << 15 | base
        return [w0, w1]
    raise ValueError("unknown family " + family)
