//! Random valid gfx1030 instructions and programs, drawn from the ISA tables.
//!
//! An instruction is built from one table row: every operand field gets a
//! random register, inline constant or literal of the field's kind, and the
//! encoding's modifiers (neg, abs, clamp, omod, op_sel, SDWA selects, DPP
//! controls) are drawn where the row allows them. The result is encoded,
//! decoded and re-encoded; only instructions that survive unchanged are
//! used (so the generator needs no copy of the encoder's validity rules,
//! and what runs is exactly what the disassembler prints).
//!
//! Register conventions of the generated programs (see [`super::program`]):
//! VGPRs v1..=v23 and SGPRs s10..=s29 are the random state; v0 (lane id),
//! v30..v32 (addresses), s0..s5 (kernarg, workgroup id, data pointer),
//! s30 (loop counter) and s31..s33 (epilogue) are never generated operands.

use arch::isa::operand::VGPR_BASE;
use arch::isa::tables::{self, Field, OpInfo};
use arch::isa::{decode, encode, Family, Instruction, Modifiers, Operand, OperandType, Target};
use arch::isa::{Variant, MAX_OPERANDS};

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A 32-bit value that is often a float special, a denormal, a small
    /// integer or a half-precision special in either half.
    pub fn value(&mut self) -> u32 {
        const SPECIAL: [u32; 20] = [
            0x0000_0000,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fc0_1234,
            0xffa0_0001, // signalling NaN with a payload
            0x7f80_0001,
            0x0000_0001, // smallest denormal
            0x807f_ffff, // largest negative denormal
            0x0080_0000, // smallest normal
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0x0000_001f,
            0xffff_ffff,
            0x7c00_fc00, // f16 +inf, -inf
            0x0001_8001, // f16 denormals
            0x7e00_3c00, // f16 NaN, 1.0
            0x8000_0001,
        ];
        match self.below(6) {
            0 | 1 => SPECIAL[self.below(SPECIAL.len() as u64) as usize],
            // Small exponents: products and sums near the denormal range.
            2 => (self.next_u64() as u32 & 0x81ff_ffff) | 0x0080_0000,
            3 => self.below(64) as u32,
            _ => self.next_u64() as u32,
        }
    }
}

/// First and last VGPR of the random state.
pub const VGPRS: (u16, u16) = (1, 23);
/// First and last SGPR of the random state.
pub const SGPRS: (u16, u16) = (10, 29);
const VCC_LO: u16 = 106;
const EXEC_LO: u16 = 126;

/// Opcodes never generated: control flow, traps, messages, waits on other
/// agents, time and hardware-id reads (which legitimately differ between a
/// functional and a clocked model), relative register addressing (which
/// reaches outside the register pools), and mode/priority changes of the
/// wave itself (MODE is set by the prologue instead).
pub fn excluded(mnemonic: &str) -> bool {
    const PREFIXES: [&str; 31] = [
        "s_cbranch",
        "s_branch",
        "s_setpc",
        "s_swappc",
        "s_getpc",
        "s_call",
        "s_rfe",
        "s_endpgm",
        "s_trap",
        "s_sendmsg",
        "s_sleep",
        "s_setprio",
        "s_icache",
        "s_memtime",
        "s_memrealtime",
        "s_getreg",
        "s_setreg",
        "s_movrel",
        "v_movrel",
        "s_set_gpr_idx",
        "s_barrier",
        "s_dcache",
        "s_ttrace",
        "s_incperflevel",
        "s_decperflevel",
        "s_sethalt",
        "s_code_end",
        "s_inst_prefetch",
        "s_subvector_loop",
        "s_get_waveid",
        "s_waitcnt",
    ];
    PREFIXES.iter().any(|p| mnemonic.starts_with(p))
        || mnemonic.starts_with("v_interp")
        || mnemonic == "v_illegal"
        || mnemonic.starts_with("v_swaprel")
        || mnemonic == "s_clause"
        || mnemonic == "s_version"
        || mnemonic == "s_denorm_mode"
        || mnemonic == "s_round_mode"
        || mnemonic == "s_wakeup"
        || mnemonic == "s_setkill"
        || mnemonic == "s_nop"
        || mnemonic == "v_nop"
        || mnemonic == "v_pipeflush"
        || mnemonic == "v_clrexcp"
}

/// The ALU families whose rows the generator draws from.
pub const ALU_FAMILIES: [Family; 9] = [
    Family::Sop1,
    Family::Sop2,
    Family::Sopk,
    Family::Sopc,
    Family::Vop1,
    Family::Vop2,
    Family::Vopc,
    Family::Vop3,
    Family::Vop3p,
];

/// Every gfx1030 ALU row the generator may use; without `known`, not the
/// rows of opcodes the two models are known to disagree on
/// ([`super::known`]).
pub fn alu_rows(known: bool) -> Vec<&'static OpInfo> {
    tables::tables(arch::isa::Isa::Gfx1030)
        .rows
        .iter()
        .filter(|r| {
            let m = r.opcode.mnemonic();
            ALU_FAMILIES.contains(&r.family)
                && !excluded(m)
                && (known || !super::known::is_known(m))
        })
        .collect()
}

/// Lane-select and lane-permute operands after src0 must be scalar
/// (SGPR, M0 or a constant), not VGPRs.
fn scalar_only_sources(mnemonic: &str) -> bool {
    matches!(
        mnemonic,
        "v_readlane_b32" | "v_writelane_b32" | "v_permlane16_b32" | "v_permlanex16_b32"
    )
}

/// How LLVM's syntax restricts source `index` of `mnemonic` beyond what the
/// encoding allows: `Some(true)` a VGPR only, `Some(false)` scalar only
/// (`v_readlane_b32 sdst, vsrc0, ssrc1`, `v_writelane_b32 vdst, ssrc0,
/// ssrc1`, `v_permlane16_b32 vdst, vsrc0, ssrc1, ssrc2`, `v_swap_b32 vdst,
/// vsrc`): the encoder takes any source code, the hardware does not.
fn source_kind(mnemonic: &str, index: usize) -> Option<bool> {
    match (mnemonic, index) {
        ("v_swap_b32", _) => Some(true),
        ("v_writelane_b32", _) => Some(false),
        ("v_readlane_b32" | "v_permlane16_b32" | "v_permlanex16_b32", 0) => Some(true),
        (m, _) if scalar_only_sources(m) => Some(false),
        _ => None,
    }
}

fn is16(t: OperandType) -> bool {
    t.element_bits() == 16
}

/// A random register of `dwords` (even-aligned SGPR pairs) from the pool.
fn sgpr(rng: &mut Rng, dwords: u8) -> u16 {
    let (lo, hi) = SGPRS;
    let span = hi + 1 - lo - u16::from(dwords) + 1;
    let mut r = lo + rng.below(u64::from(span)) as u16;
    if dwords > 1 {
        r &= !1;
        r = r.max(lo);
    }
    r
}

fn vgpr(rng: &mut Rng, dwords: u8) -> u16 {
    let (lo, hi) = VGPRS;
    let span = hi + 1 - lo - u16::from(dwords) + 1;
    VGPR_BASE + lo + rng.below(u64::from(span)) as u16
}

/// An inline constant code: integers 0..=64, -1..=-16, the eight float
/// constants and 1/(2π).
fn inline_constant(rng: &mut Rng) -> u16 {
    match rng.below(3) {
        0 => 128 + rng.below(65) as u16,
        1 => 193 + rng.below(16) as u16,
        _ => 240 + rng.below(9) as u16,
    }
}

/// State of one instruction being built: at most one literal value.
struct Build<'a> {
    rng: &'a mut Rng,
    target: Target,
    literal: Option<u32>,
}

impl Build<'_> {
    fn literal(&mut self, ty: OperandType) -> Operand {
        let value = *self.literal.get_or_insert_with(|| self.rng.value());
        Operand::Literal { value, ty }
    }

    /// A scalar source: pool SGPR, VCC, inline constant or literal.
    fn scalar_source(&mut self, ty: OperandType, allow_literal: bool) -> Operand {
        let dwords = ty.dwords(self.target);
        let code = match self.rng.below(20) {
            0..=9 => sgpr(self.rng, dwords),
            10..=11 => VCC_LO,
            12..=16 => inline_constant(self.rng),
            _ if allow_literal => return self.literal(ty),
            _ => sgpr(self.rng, dwords),
        };
        Operand::scalar(code, ty)
    }

    /// A vector-ALU source of any kind.
    fn any_source(&mut self, ty: OperandType, allow_literal: bool) -> Operand {
        let dwords = ty.dwords(self.target);
        if self.rng.chance(55) {
            return Operand::Src {
                code: vgpr(self.rng, dwords),
                ty,
            };
        }
        self.scalar_source(ty, allow_literal)
    }

    fn scalar_destination(&mut self, ty: OperandType) -> Operand {
        let dwords = ty.dwords(self.target);
        let code = match self.rng.below(40) {
            // Divergence: an occasional EXEC destination.
            0 => EXEC_LO,
            1..=4 => VCC_LO,
            _ => sgpr(self.rng, dwords),
        };
        Operand::scalar(code, ty)
    }
}

/// Draws one instruction of `row`; `None` when the drawn combination does
/// not survive encode → decode → encode (try again).
pub fn instruction(rng: &mut Rng, target: Target, row: &OpInfo) -> Option<Instruction> {
    let variant = match row.family {
        Family::Vop1 | Family::Vop2 | Family::Vopc => match rng.below(10) {
            0 | 1 => Variant::Sdwa,
            2 | 3 => Variant::Dpp16,
            4 => Variant::Dpp8,
            _ => Variant::Plain,
        },
        _ => Variant::Plain,
    };
    let vop3 = matches!(row.family, Family::Vop3 | Family::Vop3p);
    let mut b = Build {
        rng,
        target,
        literal: None,
    };
    let mut operands = [Operand::Off; MAX_OPERANDS];
    let mut count = 0;
    let mut modifiers = Modifiers::default();
    let mut float_sources = 0u8;
    let mut any16 = false;
    let mut src_index = 0;
    for spec in row.operands {
        let ty = spec.ty;
        any16 |= is16(ty);
        let dwords = ty.dwords(target);
        let op = match spec.field {
            Field::Simm16 => {
                modifiers.simm16 = b.rng.next_u64() as u16;
                continue;
            }
            Field::Sdst => b.scalar_destination(ty),
            Field::Ssrc0 | Field::Ssrc1 => b.scalar_source(ty, true),
            Field::Vdst => Operand::Src {
                code: vgpr(b.rng, dwords),
                ty,
            },
            Field::Vcc => Operand::scalar(VCC_LO, ty),
            Field::K => b.literal(ty),
            Field::Src0 | Field::Src1 | Field::Src2 => {
                let i = src_index;
                src_index += 1;
                if ty.is_float() {
                    float_sources |= 1 << i;
                }
                match source_kind(row.opcode.mnemonic(), i) {
                    Some(false) => {
                        operands[count] = b.scalar_source(ty, true);
                        count += 1;
                        continue;
                    }
                    Some(true) => {
                        operands[count] = Operand::Src {
                            code: vgpr(b.rng, dwords),
                            ty,
                        };
                        count += 1;
                        continue;
                    }
                    None => {}
                }
                let vgpr_only = match variant {
                    Variant::Dpp16 | Variant::Dpp8 => true,
                    Variant::Sdwa => false,
                    Variant::Plain => !vop3 && spec.field == Field::Src1,
                };
                if vgpr_only {
                    Operand::Src {
                        code: vgpr(b.rng, dwords),
                        ty,
                    }
                } else if variant == Variant::Sdwa {
                    // SDWA sources are registers.
                    let code = if b.rng.chance(75) {
                        vgpr(b.rng, dwords)
                    } else {
                        sgpr(b.rng, dwords)
                    };
                    Operand::Src { code, ty }
                } else {
                    b.any_source(ty, true)
                }
            }
            // Memory fields: not an ALU row.
            _ => return None,
        };
        operands[count] = op;
        count += 1;
    }
    let rng = b.rng;
    let float_result = row
        .operands
        .first()
        .is_some_and(|o| o.field == Field::Vdst && o.ty.is_float());
    match (row.family, variant) {
        (Family::Vop3, _) => {
            if rng.chance(35) {
                modifiers.neg = rng.next_u64() as u8 & float_sources;
            }
            if rng.chance(35) {
                modifiers.abs = rng.next_u64() as u8 & float_sources;
            }
            if rng.chance(15) {
                modifiers.clamp = true;
            }
            if float_result && rng.chance(20) {
                modifiers.omod = rng.below(4) as u8;
            }
            if any16 && rng.chance(40) {
                modifiers.op_sel = rng.below(16) as u8;
            }
        }
        (Family::Vop3p, _) => {
            modifiers.op_sel = rng.below(8) as u8;
            modifiers.op_sel_hi = if rng.chance(50) {
                7
            } else {
                rng.below(8) as u8
            };
            if float_sources != 0 {
                modifiers.neg = rng.below(8) as u8 & float_sources;
                modifiers.neg_hi = rng.below(8) as u8 & float_sources;
            }
            modifiers.clamp = rng.chance(15);
        }
        (_, Variant::Sdwa) => {
            modifiers.dst_sel = rng.below(7) as u8;
            modifiers.dst_unused = rng.below(3) as u8;
            modifiers.src0_sel = rng.below(7) as u8;
            modifiers.src1_sel = rng.below(7) as u8;
            if float_sources != 0 {
                modifiers.neg = rng.next_u64() as u8 & float_sources;
                modifiers.abs = rng.next_u64() as u8 & float_sources;
            } else {
                modifiers.sext = rng.below(4) as u8;
            }
            modifiers.clamp = float_result && rng.chance(20);
        }
        (_, Variant::Dpp16) => {
            const CTRLS: [(u16, u16); 8] = [
                (0x000, 0x0ff), // quad_perm
                (0x101, 0x10f), // row_shl
                (0x111, 0x11f), // row_shr
                (0x121, 0x12f), // row_ror
                (0x140, 0x141), // row_mirror, row_half_mirror
                (0x150, 0x15f), // row_share
                (0x160, 0x16f), // row_xmask
                (0x000, 0x0ff),
            ];
            let (lo, hi) = CTRLS[rng.below(8) as usize];
            modifiers.dpp_ctrl = lo + rng.below(u64::from(hi - lo + 1)) as u16;
            modifiers.row_mask = if rng.chance(60) {
                0xf
            } else {
                rng.below(16) as u8
            };
            modifiers.bank_mask = if rng.chance(60) {
                0xf
            } else {
                rng.below(16) as u8
            };
            modifiers.bound_ctrl = rng.chance(50);
            modifiers.fi = rng.chance(30);
            if float_sources != 0 {
                modifiers.neg = rng.next_u64() as u8 & float_sources & 3;
                modifiers.abs = rng.next_u64() as u8 & float_sources & 3;
            }
        }
        (_, Variant::Dpp8) => {
            modifiers.dpp8 = rng.next_u64() as u32 & 0xff_ffff;
            modifiers.fi = rng.chance(30);
        }
        _ => {}
    }
    let inst = Instruction {
        target,
        opcode: row.opcode,
        family: row.family,
        variant,
        operands,
        operand_count: count as u8,
        modifiers,
        size: 0,
    };
    canonical(&inst)
}

/// The instruction as the decoder reads its encoding, if it encodes and
/// the decoded form encodes to the same bytes.
pub fn canonical(inst: &Instruction) -> Option<Instruction> {
    let mut bytes = Vec::new();
    encode(inst, &mut bytes).ok()?;
    let decoded = decode(inst.target, &bytes).ok()?;
    if usize::from(decoded.size) != bytes.len() {
        return None;
    }
    let mut again = Vec::new();
    encode(&decoded, &mut again).ok()?;
    (again == bytes && decoded.opcode == inst.opcode).then_some(decoded)
}

/// True when `inst` may write EXEC (a destination EXEC operand, `v_cmpx`,
/// the save-exec and wrexec forms).
pub fn may_write_exec(inst: &Instruction) -> bool {
    let m = inst.opcode.mnemonic();
    m.contains("cmpx")
        || m.contains("exec")
        || inst
            .operands()
            .first()
            .is_some_and(|o| matches!(o, Operand::Src { code, .. } if (126..=127).contains(code)))
}
