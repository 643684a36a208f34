//! Processor names and the `EF_AMDGPU_MACH` values of the ELF header flags
//! (AMDGPUUsage, "AMDGPU ELF Header", table `EF_AMDGPU_MACH`).

use crate::isa::Isa;

/// `EF_AMDGPU_MACH` (bits 7:0 of `e_flags` in code object v3+).
pub(crate) const MACH_MASK: u32 = 0xff;

/// (mach, processor) pairs from AMDGPUUsage.
const MACHS: &[(u32, &str)] = &[
    (0x020, "gfx600"),
    (0x021, "gfx601"),
    (0x022, "gfx700"),
    (0x023, "gfx701"),
    (0x024, "gfx702"),
    (0x025, "gfx703"),
    (0x026, "gfx704"),
    (0x028, "gfx801"),
    (0x029, "gfx802"),
    (0x02a, "gfx803"),
    (0x02b, "gfx810"),
    (0x02c, "gfx900"),
    (0x02d, "gfx902"),
    (0x02e, "gfx904"),
    (0x02f, "gfx906"),
    (0x030, "gfx908"),
    (0x031, "gfx909"),
    (0x032, "gfx90c"),
    (0x033, "gfx1010"),
    (0x034, "gfx1011"),
    (0x035, "gfx1012"),
    (0x036, "gfx1030"),
    (0x037, "gfx1031"),
    (0x038, "gfx1032"),
    (0x039, "gfx1033"),
    (0x03a, "gfx602"),
    (0x03b, "gfx705"),
    (0x03c, "gfx805"),
    (0x03d, "gfx1035"),
    (0x03e, "gfx1034"),
    (0x03f, "gfx90a"),
    (0x040, "gfx940"),
    (0x041, "gfx1100"),
    (0x042, "gfx1013"),
    (0x043, "gfx1150"),
    (0x044, "gfx1103"),
    (0x045, "gfx1036"),
    (0x046, "gfx1101"),
    (0x047, "gfx1102"),
    (0x048, "gfx1200"),
];

/// The processor a mach value names.
pub(crate) fn name_of_mach(mach: u32) -> Option<&'static str> {
    MACHS.iter().find(|m| m.0 == mach).map(|m| m.1)
}

/// The mach value of a processor name.
pub(crate) fn mach_of_name(name: &str) -> Option<u32> {
    MACHS.iter().find(|m| m.1 == name).map(|m| m.0)
}

/// The ISA gpusim models for a processor, if any.
pub(crate) fn isa_of(processor: &str) -> Option<Isa> {
    match processor {
        "gfx803" => Some(Isa::Gfx803),
        "gfx1030" => Some(Isa::Gfx1030),
        _ => None,
    }
}

/// The processor name of a v2 ISA version note (`8.0.3` is `gfx803`; a
/// stepping of 10 or more is a hex digit, as in `gfx90a`).
pub(crate) fn name_of_version(major: u32, minor: u32, stepping: u32) -> String {
    if stepping < 16 {
        format!("gfx{major}{minor}{stepping:x}")
    } else {
        format!("gfx{major}.{minor}.{stepping}")
    }
}
