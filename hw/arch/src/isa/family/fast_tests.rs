//! The fast decode paths ([`super::fill`]) against the full decoders: on random
//! words of every fast family (with random extension dwords), the public
//! `decode` and the full decoder must agree exactly — same instruction, or same
//! error — and the fast path must answer for the common forms.

use crate::isa::decode::{decode_slow, identify};
use crate::isa::{decode, Family, Target};

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
fn word(rng: &mut Rng, class: u32, isa_vop3: u32) -> u32 {
    let mut w = rng.next();
    if rng.next() % 2 == 0 {
        // Clear a random run of bits: unused fields are zero in real code.
        let shift = rng.next() % 24;
        w &= !(0xff << shift);
    }
    match class {
        // VOP1/VOP2/VOPC: bit 31 clear.
        0 => w & 0x7fff_ffff,
        // SOP*: bits 31:30 = 10.
        1 => w & 0x3fff_ffff | 0x8000_0000,
        // SOPP / SOPC / SOP1 prefixes, which random SOP2 words rarely hit.
        2 => w & 0x007f_ffff | [0xbf80_0000, 0xbf00_0000, 0xbe80_0000][(rng.next() % 3) as usize],
        // VOP3.
        _ => w & 0x03ff_ffff | isa_vop3 << 26,
    }
}

#[test]
fn fast_paths_agree_with_the_full_decoders() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut answered = [0usize; 17];
    for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        let vop3 = if target.isa == crate::isa::Isa::Gfx803 {
            0x34
        } else {
            0x35
        };
        for class in 0..4 {
            for _ in 0..40_000 {
                let mut bytes = word(&mut rng, class, vop3).to_le_bytes().to_vec();
                // 0, 1 or 2 extension dwords (literals, VOP3's second word), sometimes
                // with small source fields so VOP3 sources are registers.
                for _ in 0..rng.next() % 3 {
                    let mut extra = rng.next();
                    if rng.next() % 2 == 0 {
                        extra &= 0x003f_ffff;
                    }
                    bytes.extend_from_slice(&extra.to_le_bytes());
                }
                let fast = decode(target, &bytes);
                let full = decode_slow(target, &bytes);
                assert_eq!(fast, full, "{target:?} {bytes:02x?}");
                if let Ok(inst) = fast {
                    answered[inst.family as usize] += 1;
                }
                let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                assert!(identify(target.isa, word).is_some());
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
    ] {
        assert!(
            answered[family as usize] > 200,
            "{family}: only {} valid random words",
            answered[family as usize]
        );
    }
}
