//! Property tests of the scalar families: arbitrary words never panic, and every
//! accepted word round-trips through encode, format and assemble.

use arch::isa::{assemble, decode, encode, Target};
use proptest::prelude::*;

const TARGETS: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

/// First words of the scalar families: SOP2/SOPK/SOP1/SOPC/SOPP (top bits 10) and
/// SMEM (gfx803 0xc0.., gfx1030 0xf4..).
fn scalar_word() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>().prop_map(|w| 0x8000_0000 | (w & 0x3fff_ffff)),
        any::<u32>().prop_map(|w| 0xbe80_0000 | (w & 0x017f_ffff)),
        any::<u32>().prop_map(|w| 0xc000_0000 | (w & 0x03ff_ffff)),
        any::<u32>().prop_map(|w| 0xf400_0000 | (w & 0x03ff_ffff)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn never_panics_and_round_trips(w0 in scalar_word(), w1 in any::<u32>(), t in 0usize..3, cut in 0usize..9) {
        let target = TARGETS[t];
        let mut bytes: Vec<u8> = [w0, w1].iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.truncate(cut);
        let Ok(inst) = decode(target, &bytes) else { return Ok(()) };
        let size = usize::from(inst.size);
        prop_assert!(size <= bytes.len());
        let mut again = Vec::new();
        encode(&inst, &mut again).map_err(|e| TestCaseError::fail(format!("{inst}: {e}")))?;
        prop_assert_eq!(&again[..], &bytes[..size], "encode of {}", inst);
        // The printed text assembles to an instruction printing the same text.
        let text = inst.to_string();
        let asm = assemble(target, &text).map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
        let back = decode(target, &asm).map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
        prop_assert_eq!(back.to_string(), text);
    }
}
