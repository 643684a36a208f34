//! Generates `hw/arch/src/isa/tables/generated.rs` from `hw/arch/isa/*.isa`.
fn main() {}
