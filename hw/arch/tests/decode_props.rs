//! Property tests: the decoder, printer and encoder never panic on arbitrary
//! bytes, and whatever decodes re-encodes to the same bytes.

use arch::isa::{assemble, decode, decode_into, encode, DecodeError, EncodeError, Target};
use proptest::prelude::*;

const TARGETS: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

fn check(target: Target, bytes: &[u8]) -> Result<(), TestCaseError> {
    // `decode_into` over a previously decoded instruction (of another
    // target, with modifiers and operands set) gives exactly `decode`'s
    // instruction or error.
    let previous = assemble(Target::GFX803, "v_mad_f32 v1, -v2, |s3|, 0.5 clamp")
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut into =
        decode(Target::GFX803, &previous).map_err(|e| TestCaseError::fail(e.to_string()))?;
    match (decode(target, bytes), decode_into(target, bytes, &mut into)) {
        (Ok(a), Ok(())) => prop_assert_eq!(a, into),
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        (a, b) => prop_assert!(false, "decode {a:?}, decode_into {b:?}"),
    }
    match decode(target, bytes) {
        Ok(inst) => {
            let size = usize::from(inst.size);
            prop_assert!(
                size >= 4 && size <= bytes.len(),
                "size {size} of {} bytes",
                bytes.len()
            );
            let text = inst.to_string();
            prop_assert!(!text.is_empty());
            let mut out = Vec::new();
            match encode(&inst, &mut out) {
                Ok(()) => prop_assert_eq!(&out[..], &bytes[..size], "{} ({:?})", text, target),
                // A family whose encoder is missing is reported, not faked.
                Err(EncodeError::Unimplemented(_)) => {}
                Err(e) => prop_assert!(false, "{text}: decoded but does not encode: {e}"),
            }
        }
        Err(DecodeError::Truncated {
            needed, available, ..
        }) => {
            prop_assert!(needed > available);
        }
        Err(e) => prop_assert_eq!(e.offset(), 0),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..16)) {
        for target in TARGETS {
            check(target, &bytes)?;
        }
    }

    /// Random words under the top bits of each encoding family, so every family's
    /// decoder sees many candidates, not only the few random words that hit it.
    #[test]
    fn family_prefixed_words_never_panic(
        prefix in prop::sample::select(vec![
            0x0000_0000u32, 0x7c00_0000, 0x7e00_0000, 0x8000_0000, 0xb000_0000, 0xbe80_0000,
            0xbf00_0000, 0xbf80_0000, 0xc000_0000, 0xcc00_0000, 0xd000_0000, 0xd400_0000,
            0xd800_0000, 0xdc00_0000, 0xe000_0000, 0xe800_0000, 0xf400_0000,
        ]),
        low in any::<u32>(),
        rest in proptest::collection::vec(any::<u8>(), 0..12),
    ) {
        let mask = match prefix >> 24 {
            0x00 => 0x7fff_ffff,
            0x7c | 0x7e => 0x01ff_ffff,
            0xbe | 0xbf => 0x007f_ffff,
            0x80 | 0xb0 => 0x0fff_ffff,
            _ => 0x03ff_ffff,
        };
        let word = prefix | (low & mask);
        let mut bytes = word.to_le_bytes().to_vec();
        bytes.extend(rest);
        for target in TARGETS {
            check(target, &bytes)?;
        }
    }
}

#[test]
fn truncated_input_names_offset() {
    // s_endpgm, then one stray byte.
    let err = arch::isa::decode_all(Target::GFX1030_W32, &[0, 0, 0x81, 0xbf, 0x01]).unwrap_err();
    assert_eq!(err.offset(), 4, "{err}");
    assert!(matches!(err, DecodeError::Truncated { .. }), "{err}");
}

/// Each major opcode of the 64-bit encoding space (bits 31:26 = 0x30..=0x3f,
/// other bits zero, a zero second word), classified as `llvm-mc-19
/// --disassemble` does: an instruction (which we decode, or report as a real
/// encoding we do not model) or "invalid instruction encoding" (which must not
/// be reported as unimplemented).
#[test]
fn unknown_major_opcodes_are_invalid_or_unmodelled_as_in_llvm() {
    // Majors LLVM decodes, per ISA; the ones we do not model are MIMG, EXP, VINTRP.
    let llvm_decodes: [(Target, &[u32], &[u32]); 2] = [
        (
            Target::GFX803,
            &[0x30, 0x31, 0x35, 0x36, 0x38, 0x3a, 0x3c],
            &[0x31, 0x35, 0x3c],
        ),
        (
            Target::GFX1030_W32,
            &[0x32, 0x33, 0x35, 0x36, 0x38, 0x3a, 0x3c, 0x3d, 0x3e],
            &[0x32, 0x3c, 0x3e],
        ),
    ];
    for (target, decodes, unmodelled) in llvm_decodes {
        for major in 0x30..=0x3fu32 {
            let mut bytes = (major << 26).to_le_bytes().to_vec();
            bytes.extend_from_slice(&[0; 8]);
            let result = decode(target, &bytes);
            let what = format!("{target:?} major {major:#x}: {result:?}");
            if unmodelled.contains(&major) {
                assert!(
                    matches!(result, Err(DecodeError::Unimplemented { .. })),
                    "{what}"
                );
            } else if decodes.contains(&major) {
                assert!(result.is_ok(), "{what}");
            } else {
                assert!(
                    matches!(
                        result,
                        Err(DecodeError::InvalidEncoding { .. }
                            | DecodeError::InvalidOpcode { .. }
                            | DecodeError::InvalidOperand { .. })
                    ),
                    "{what}"
                );
            }
        }
    }
}
