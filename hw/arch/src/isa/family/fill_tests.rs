//! The fast decode paths ([`super::fill`]) against the full decoders: on random
//! words of every fast family (with random extension dwords), the public
//! `decode` and the full decoder must agree exactly — same instruction, or same
//! error — and the fast path must answer for the common forms.

use crate::isa::decode::{decode_slow, identify, try_fill};
use crate::isa::{decode, Family, Target, Variant};

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// A random first word of family class `class`, with some fields biased towards
/// the values real code uses (zero unused fields, small register numbers).
fn word(rng: &mut Rng, class: u32, isa_vop3: u32, majors: [u32; 4]) -> u32 {
    let mut w = rng.next();
    if rng.next() % 2 == 0 {
        // Clear a random run of bits: unused fields are zero in real code.
        let shift = rng.next() % 24;
        w &= !(0xff << shift);
    }
    match class {
        // VOP1/VOP2/VOPC (5: with an extension code put in src0): bit 31 clear.
        0 | 5 => w & 0x7fff_ffff,
        // SOP*: bits 31:30 = 10.
        1 => w & 0x3fff_ffff | 0x8000_0000,
        // SOPP / SOPC / SOP1 prefixes, which random SOP2 words rarely hit.
        2 => w & 0x007f_ffff | [0xbf80_0000, 0xbf00_0000, 0xbe80_0000][(rng.next() % 3) as usize],
        // VOP3.
        3 => w & 0x03ff_ffff | isa_vop3 << 26,
        // A memory family's major opcode (SMEM, DS, FLAT, MUBUF), from `majors`.
        _ => w & 0x03ff_ffff | majors[(rng.next() % 4) as usize] << 26,
    }
}

/// A random second word for a memory instruction: register fields biased to
/// small values and unused fields to zero, as in real code.
fn memory_word(rng: &mut Rng) -> u32 {
    let mut w = rng.next();
    for shift in [0, 8, 16, 24] {
        match rng.next() % 4 {
            0 => w &= !(0xff << shift),
            1 => w &= !(0xf0 << shift),
            _ => {}
        }
    }
    w
}

/// Decodes `bytes` through the public decoder and the full decoder, requires
/// the same answer, and counts the instructions the fast path itself produced
/// per family (so a fast path that never answers fails the coverage check).
fn check(target: Target, bytes: &[u8], answered: &mut [usize; 17], extended: &mut [usize; 3]) {
    let public = decode(target, bytes);
    let full = decode_slow(target, bytes);
    assert_eq!(public, full, "{target:?} {bytes:02x?}");
    let mut inst = crate::isa::decode::fill_template(target);
    if try_fill(&mut inst, bytes) {
        assert_eq!(Ok(inst), full, "fast path: {target:?} {bytes:02x?}");
        answered[inst.family as usize] += 1;
        match inst.variant {
            Variant::Plain => {}
            Variant::Sdwa => extended[0] += 1,
            Variant::Dpp16 => extended[1] += 1,
            Variant::Dpp8 => extended[2] += 1,
        }
    }
    let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    assert!(identify(target.isa, word).is_some());
}

#[test]
fn fast_paths_agree_with_the_full_decoders() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut answered = [0usize; 17];
    let mut extended = [0usize; 3];
    for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        let (vop3, majors) = if target.isa == crate::isa::Isa::Gfx803 {
            (0x34, [0x30, 0x36, 0x37, 0x38])
        } else {
            (0x35, [0x3d, 0x36, 0x37, 0x38])
        };
        for class in 0..6 {
            let n = if class == 4 { 160_000 } else { 40_000 };
            for _ in 0..n {
                let mut first = word(&mut rng, class, vop3, majors);
                if class == 4 && rng.next() % 2 == 0 {
                    // Clear the bits that are reserved in some memory layout, so
                    // that more random words are valid.
                    first &= !(1 << 25 | 1 << 17 | 1 << 15 | 1 << 13);
                }
                let mut bytes = first.to_le_bytes().to_vec();
                if class == 4 {
                    // Memory instructions are two words; a truncated one must fail alike.
                    if rng.next() % 16 != 0 {
                        let mut second = memory_word(&mut rng);
                        if first >> 26 == 0x37 {
                            // FLAT `saddr`/`nv` (bits 23:16): often `off` (0x7d) on
                            // gfx1030, zero (as gfx803 requires), or random.
                            second &= !0x00ff_0000;
                            second |= [0x7d, 0, rng.next() & 0x7f][(rng.next() % 3) as usize] << 16;
                        }
                        bytes.extend_from_slice(&second.to_le_bytes());
                    }
                } else if class == 5 {
                    // SDWA, DPP16 or (gfx1030) DPP8 in src0, and usually the
                    // extension dword, biased towards valid selects and controls.
                    let codes: &[u32] = if target.isa == crate::isa::Isa::Gfx803 {
                        &[249, 250]
                    } else {
                        &[249, 250, 233, 234]
                    };
                    first = first & !0x1ff | codes[(rng.next() as usize) % codes.len()];
                    bytes = first.to_le_bytes().to_vec();
                    if rng.next() % 16 != 0 {
                        let mut extra = rng.next();
                        match rng.next() % 3 {
                            // SDWA selects in range, modifier bits mostly clear.
                            0 => extra &= !(0x8888_8800 | 0x3030_0000),
                            // A common DPP control (quad_perm), masks set.
                            1 => {
                                extra = extra & 0x00f0_00ff | 0xff00_0000 | (rng.next() & 0xff) << 8
                            }
                            _ => {}
                        }
                        bytes.extend_from_slice(&extra.to_le_bytes());
                    }
                } else {
                    // 0, 1 or 2 extension dwords (literals, VOP3's second word),
                    // sometimes with small source fields so VOP3 sources are registers.
                    for _ in 0..rng.next() % 3 {
                        let mut extra = rng.next();
                        if rng.next() % 2 == 0 {
                            extra &= 0x003f_ffff;
                        }
                        bytes.extend_from_slice(&extra.to_le_bytes());
                    }
                }
                check(target, &bytes, &mut answered, &mut extended);
            }
        }
    }
    for family in [
        Family::Sop1,
        Family::Sop2,
        Family::Sopk,
        Family::Sopc,
        Family::Sopp,
        Family::Vop1,
        Family::Vop2,
        Family::Vopc,
        Family::Vop3,
        Family::Smem,
        Family::Ds,
        Family::Flat,
        Family::Global,
        Family::Scratch,
        Family::Mubuf,
    ] {
        assert!(
            answered[family as usize] > 200,
            "{family}: the fast path answered only {} random words",
            answered[family as usize]
        );
    }
    for (variant, n) in ["SDWA", "DPP16", "DPP8"].iter().zip(extended) {
        assert!(
            n > 200,
            "{variant}: the fast path answered only {n} random words"
        );
    }
}
