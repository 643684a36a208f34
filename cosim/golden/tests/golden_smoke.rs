//! Smoke tests of the golden GPU: a dispatch runs end to end on every target.

use arch::isa::Target;
use golden::testing::{Kernel, DATA, KERNARG};

#[test]
fn scalar_program_runs_on_every_target() {
    for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        let done = Kernel::new(
            target,
            "s_mov_b32 s10, 42\ns_add_u32 s11, s10, 0x100\ns_endpgm",
        )
        .run()
        .unwrap_or_else(|e| panic!("{target:?}: {e}"));
        assert_eq!(done.waves.len(), 1);
        let w = &done.waves[0];
        assert_eq!(w.sgpr[10], 42);
        assert_eq!(w.sgpr[11], 0x12a);
        // Kernarg pointer in s[2:3], dispatch pointer (the payload) in s[0:1].
        assert_eq!(w.sgpr[2], KERNARG as u32);
        assert_eq!(w.sgpr[0], golden::testing::BLOCK as u32 + 4);
        let _ = DATA;
    }
}
