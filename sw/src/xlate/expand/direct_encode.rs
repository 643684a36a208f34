//! Direct encoding of the re-targeted instructions (the one-for-one path): per gfx1030
//! table row, where each operand's code goes in the words (decided once, from
//! the row's fields), so that an instruction the translator re-targets one
//! for one is written straight into the output from the legacy operands,
//! without building the gfx1030 [`Instruction`] and without `arch`'s generic
//! encoder (row look-up, operand-list walk, field validation).
//!
//! Only the scalar ALU (SOP1/SOP2/SOPC/SOPK/SOPP) and plain VOP1/VOP2/VOPC and
//! VOP3 rows are covered: their field layouts are fixed per family. Anything
//! this module is not sure of — a row with a field it does not place, an
//! operand code outside its field, two literals, VOP3 modifiers out of range —
//! answers "no", and the caller uses `arch::isa::encode`, which then gives the
//! result or names the error. A test compares the two on random gfx803 words.

use arch::isa::{Family, Field, Instruction, OpInfo, Operand};

/// Where one operand's code goes.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// Word index (0 or 1).
    word: u8,
    /// Bit position of the field.
    shift: u8,
    /// Field width in bits.
    bits: u8,
    /// A VGPR-only field: holds `code - 256`, codes below 256 are refused.
    vgpr: bool,
    /// Not encoded: the implicit `vcc` of the 32-bit VOP forms (must be VCC).
    implicit_vcc: bool,
    /// A field a literal may take (a source: code 255 plus the literal dword).
    source: bool,
}

/// How the modifiers are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mods {
    /// None (SOP1/SOP2/SOPC, plain 32-bit VOP).
    None,
    /// `simm16` in bits 15:0 (SOPK, SOPP).
    Simm16,
    /// VOP3a: clamp, op_sel, abs, neg, omod.
    Vop3a,
    /// VOP3b (carry-out in bits 14:8): clamp, neg, omod; no abs/op_sel.
    Vop3b,
}

/// Maximum operands of a covered row.
const SLOTS: usize = 5;

/// The direct encoding of one gfx1030 row.
#[derive(Clone, Copy, Debug)]
pub(super) struct Enc {
    /// The words with the opcode (and family bits) set, operands zero.
    base: [u32; 2],
    /// 1 or 2.
    words: u8,
    mods: Mods,
    slots: [Slot; SLOTS],
    /// Operands of the row (the instruction must have exactly these).
    count: u8,
}

/// VCC's code.
const VCC: u16 = 106;
/// The literal-constant source code.
const LITERAL: u16 = 255;

fn slot(word: u8, shift: u8, bits: u8, vgpr: bool, source: bool) -> Slot {
    Slot {
        word,
        shift,
        bits,
        vgpr,
        implicit_vcc: false,
        source,
    }
}

impl Enc {
    /// The direct encoding of gfx1030 `row`, when every field is one this
    /// module places.
    pub(super) fn of(row: &OpInfo) -> Option<Enc> {
        let n = u32::from(row.number);
        let (base, words, mods) = match row.family {
            Family::Sop1 => ([0xbe80_0000 | n << 8, 0], 1, Mods::None),
            Family::Sop2 => ([0x8000_0000 | n << 23, 0], 1, Mods::None),
            Family::Sopk => ([0xb000_0000 | n << 23, 0], 1, Mods::Simm16),
            Family::Sopc => ([0xbf00_0000 | n << 16, 0], 1, Mods::None),
            Family::Sopp => ([0xbf80_0000 | n << 16, 0], 1, Mods::Simm16),
            Family::Vop1 => ([0x3f << 25 | n << 9, 0], 1, Mods::None),
            Family::Vop2 => ([n << 25, 0], 1, Mods::None),
            Family::Vopc => ([0x3e << 25 | n << 17, 0], 1, Mods::None),
            Family::Vop3 => {
                let has = |f| row.operands.iter().any(|s| s.field == f);
                let b = has(Field::Vdst) && has(Field::Sdst);
                (
                    [0x35 << 26 | n << 16, 0],
                    2,
                    if b { Mods::Vop3b } else { Mods::Vop3a },
                )
            }
            _ => return None,
        };
        if row.operands.len() > SLOTS {
            return None;
        }
        let scalar = matches!(
            row.family,
            Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp
        );
        // Scalar rows with immediates in unusual places (`s_setreg_imm32`,
        // `s_set_gpr_idx_on`, SOPK `K`) are left to `arch`.
        if scalar
            && (row.opcode == arch::isa::Opcode::S_SETREG_IMM32_B32
                || row.opcode == arch::isa::Opcode::S_SET_GPR_IDX_ON)
        {
            return None;
        }
        let mut slots = [Slot::default(); SLOTS];
        let mut dst = false;
        let mut count = 0;
        for spec in row.operands {
            // `simm16` is a modifier, not an operand.
            if spec.field == Field::Simm16 && mods == Mods::Simm16 {
                continue;
            }
            slots[count] = match (row.family, spec.field) {
                (Family::Sop1 | Family::Sop2 | Family::Sopk, Field::Sdst) => {
                    slot(0, 16, 7, false, false)
                }
                (Family::Sop1 | Family::Sop2 | Family::Sopc, Field::Ssrc0) => {
                    slot(0, 0, 8, false, true)
                }
                (Family::Sop2 | Family::Sopc, Field::Ssrc1) => slot(0, 8, 8, false, true),
                (Family::Vop1 | Family::Vop2, Field::Vdst) => slot(0, 17, 8, true, false),
                (Family::Vop1 | Family::Vop2 | Family::Vopc, Field::Src0) => {
                    slot(0, 0, 9, false, true)
                }
                (Family::Vop2 | Family::Vopc, Field::Src1) => slot(0, 9, 8, true, false),
                (Family::Vop2 | Family::Vopc, Field::Vcc) => Slot {
                    implicit_vcc: true,
                    ..Slot::default()
                },
                (Family::Vop3, Field::Vdst) => {
                    dst = true;
                    slot(0, 0, 8, true, false)
                }
                (Family::Vop3, Field::Sdst) if mods == Mods::Vop3b => slot(0, 8, 7, false, false),
                (Family::Vop3, Field::Sdst) => {
                    dst = true;
                    slot(0, 0, 8, false, false)
                }
                (Family::Vop3, Field::Src0) => slot(1, 0, 9, false, true),
                (Family::Vop3, Field::Src1) => slot(1, 9, 9, false, true),
                (Family::Vop3, Field::Src2) => slot(1, 18, 9, false, true),
                _ => return None,
            };
            count += 1;
        }
        // VOP3 without a destination operand puts something else in bits
        // 7:0 (`v_cmpx_*_e64`: EXEC): left to `arch`.
        if row.family == Family::Vop3 && !dst {
            return None;
        }
        Some(Enc {
            base,
            words,
            mods,
            slots,
            count: count as u8,
        })
    }

    /// Appends `inst`'s words (operands and modifiers taken from `inst`,
    /// opcode from the row) to `out`; false (nothing written) when unsure.
    #[inline]
    pub(super) fn write(&self, inst: &Instruction, out: &mut Vec<u8>) -> bool {
        if inst.operand_count != self.count {
            return false;
        }
        // Both words in one register (word 1 in the high half): no
        // read-modify-write of an array in memory per operand.
        let mut w = u64::from(self.base[0]) | u64::from(self.base[1]) << 32;
        let mut literal: Option<u32> = None;
        for (op, s) in inst.operands().iter().zip(&self.slots) {
            let code = match *op {
                Operand::Src { code, .. } => code,
                Operand::Literal { value, .. } if s.source => {
                    if literal.is_some_and(|l| l != value) {
                        return false;
                    }
                    literal = Some(value);
                    LITERAL
                }
                _ => return false,
            };
            if s.implicit_vcc {
                if code != VCC {
                    return false;
                }
                continue;
            }
            let v = if s.vgpr {
                match code.checked_sub(256) {
                    Some(v) => v,
                    None => return false,
                }
            } else {
                code
            };
            if u32::from(v) >> s.bits != 0 {
                return false;
            }
            w |= u64::from(v) << (s.shift + 32 * s.word);
        }
        let m = &inst.modifiers;
        match self.mods {
            Mods::None => {}
            Mods::Simm16 => w |= u64::from(m.simm16),
            Mods::Vop3a | Mods::Vop3b => {
                if self.mods == Mods::Vop3b {
                    if m.abs != 0 || m.op_sel != 0 {
                        return false;
                    }
                } else {
                    if m.abs > 7 || m.op_sel > 15 {
                        return false;
                    }
                    w |= u64::from(m.op_sel) << 11 | u64::from(m.abs) << 8;
                }
                w |= u64::from(m.clamp) << 15;
                w |= u64::from(m.neg & 7) << (32 + 29) | u64::from(m.omod & 3) << (32 + 27);
            }
        }
        if self.words == 2 {
            out.extend_from_slice(&w.to_le_bytes());
        } else {
            out.extend_from_slice(&(w as u32).to_le_bytes());
        }
        if let Some(l) = literal {
            out.extend_from_slice(&l.to_le_bytes());
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use arch::isa::{decode, encode, Target};

    use super::super::alu::{plain, retarget_plain, Retargeted};

    /// Random gfx803 words (biased to the covered families' prefixes):
    /// whenever the one-for-one path writes an instruction directly, the bytes are
    /// exactly what `arch`'s encoder gives for the re-targeted instruction,
    /// and the encoder accepts it.
    #[test]
    fn direct_encoding_equals_arch_encoder_on_random_words() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // SOP2, SOPK, SOP1, SOPC, SOPP, VOP2, VOP1, VOPC, VOP3 (gfx8 0x34).
        let prefixes: [(u32, u32); 9] = [
            (0x8000_0000, 0xc000_0000),
            (0xb000_0000, 0xf000_0000),
            (0xbe80_0000, 0xff80_0000),
            (0xbf00_0000, 0xff80_0000),
            (0xbf80_0000, 0xff80_0000),
            (0x0000_0000, 0x8000_0000),
            (0x7e00_0000, 0xfe00_0000),
            (0x7c00_0000, 0xfe00_0000),
            (0xd000_0000, 0xfc00_0000),
        ];
        let (mut written, mut by_arch) = (0u32, 0u32);
        for _ in 0..400_000 {
            let r = next();
            let (value, mask) = prefixes[(r % prefixes.len() as u64) as usize];
            let w0 = (r >> 32) as u32 & !mask | value;
            let r2 = next();
            let mut bytes = Vec::with_capacity(12);
            bytes.extend_from_slice(&w0.to_le_bytes());
            bytes.extend_from_slice(&(r2 as u32).to_le_bytes());
            bytes.extend_from_slice(&((r2 >> 32) as u32).to_le_bytes());
            let Ok(inst) = decode(Target::GFX803, &bytes) else {
                continue;
            };
            let Some((re, _)) = plain(&inst) else {
                continue;
            };
            let mut expected = Vec::new();
            let arch_ok = encode(&re, &mut expected).is_ok();
            let mut got = Vec::new();
            match retarget_plain(&inst, &mut got) {
                Some(Retargeted::Written(_)) => {
                    assert!(arch_ok, "{inst}: arch refuses what was written directly");
                    assert_eq!(got, expected, "{inst} ({w0:#010x})");
                    written += 1;
                }
                Some(Retargeted::Inst(i, _)) => {
                    assert!(got.is_empty());
                    assert_eq!(i, re);
                    by_arch += 1;
                }
                None => panic!("{inst}: plain accepts it, retarget_plain does not"),
            }
        }
        // Both outcomes occur (the comparison is not vacuous).
        assert!(written > 10_000, "{written} written directly");
        assert!(by_arch > 0, "{by_arch} left to arch");
    }
}
