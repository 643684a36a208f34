//! Fuzz the instruction decoder, printer and encoder on both ISAs.
#![no_main]

use arch::isa::{decode, encode, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        if let Ok(inst) = decode(target, data) {
            let _ = inst.to_string();
            let mut out = Vec::new();
            if encode(&inst, &mut out).is_ok() {
                assert_eq!(&out[..], &data[..usize::from(inst.size)]);
            }
        }
    }
});
