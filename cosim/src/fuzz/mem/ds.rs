//! The DS rows: LDS reads, writes and atomics in the lane's 16 bytes (the
//! two-address forms too), the `st64` forms in rows of 64 lanes, the
//! `addtid` forms and the append/consume counters through M0, and the
//! cross-lane forms (`ds_swizzle_b32`, `ds_permute_b32`, `ds_bpermute_b32`).

use arch::isa::{Field, OpInfo};

use super::{
    access_bytes, aligned_offset, alignment, dwords_of, vreg, LDS_ADDTID, LDS_COUNTER, LGKM,
};
use crate::fuzz::gen::Rng;

/// One random item of the DS row `row`.
pub fn text(rng: &mut Rng, row: &OpInfo) -> Vec<String> {
    let m = row.opcode.mnemonic();
    let reg = |rng: &mut Rng, field| vreg(rng, dwords_of(row, field).unwrap_or(1));
    let line = match m {
        "ds_nop" => m.to_string(),
        "ds_append" | "ds_consume" => {
            let d = reg(rng, Field::Vdst);
            let off = 4 * rng.below(4);
            return vec![
                format!("s_mov_b32 m0, {LDS_COUNTER}"),
                format!("{m} {d} offset:{off}"),
                LGKM.into(),
            ];
        }
        "ds_write_addtid_b32" | "ds_read_addtid_b32" => {
            // Lane l reaches M0 + offset + 4 l: one dword per lane.
            let r = if m.starts_with("ds_write") {
                reg(rng, Field::Data0)
            } else {
                reg(rng, Field::Vdst)
            };
            let off = 4 * rng.below(64);
            return vec![
                format!("s_mov_b32 m0, {LDS_ADDTID}"),
                format!("{m} {r} offset:{off}"),
                LGKM.into(),
            ];
        }
        "ds_swizzle_b32" => {
            let d = reg(rng, Field::Vdst);
            let s = vreg(rng, 1);
            format!("{m} {d}, {s} offset:{}", rng.below(0x1_0000))
        }
        "ds_permute_b32" => {
            // A push collision's winner is the model's choice: the target
            // lanes are a permutation (lane xor c, rotated by the offset).
            let d = reg(rng, Field::Vdst);
            let s = reg(rng, Field::Data0);
            return vec![
                format!("v_xor_b32 v42, {}, v0", rng.below(32)),
                "v_lshlrev_b32 v42, 2, v42".into(),
                format!("{m} {d}, v42, {s} offset:{}", 4 * rng.below(64)),
                LGKM.into(),
            ];
        }
        "ds_bpermute_b32" => {
            // A pull reads any lane: any address is legal.
            let d = reg(rng, Field::Vdst);
            let a = vreg(rng, 1);
            let s = reg(rng, Field::Data0);
            format!("{m} {d}, {a}, {s} offset:{}", rng.below(0x1_0000))
        }
        _ if ["ds_read2", "ds_write2", "ds_wrxchg2"]
            .iter()
            .any(|p| m.starts_with(p)) =>
        {
            two_address(rng, row)
        }
        _ => {
            let bytes = access_bytes(m);
            // b96 and b128 fill the lane's 16 bytes from its start.
            let off = aligned_offset(rng, 16, bytes, alignment(bytes).min(8));
            let mut ops = Vec::new();
            for spec in row.operands {
                ops.push(match spec.field {
                    Field::Vaddr => "v27".to_string(),
                    f => reg(rng, f),
                });
            }
            format!("{m} {} offset:{off}", ops.join(", "))
        }
    };
    vec![line, LGKM.into()]
}

/// `ds_read2*`, `ds_write2*`, `ds_wrxchg2*`: two distinct element offsets
/// in the lane's 16 bytes, or (`st64`) in two of the 64-lane rows.
fn two_address(rng: &mut Rng, row: &OpInfo) -> String {
    let m = row.opcode.mnemonic();
    let wide = m.ends_with("b64");
    let st64 = m.contains("st64");
    let (addr, slots) = match (st64, wide) {
        (true, false) => ("v40", 8),
        (true, true) => ("v41", 8),
        (false, false) => ("v27", 4),
        (false, true) => ("v27", 2),
    };
    let a = rng.below(slots);
    let b = (a + 1 + rng.below(slots - 1)) % slots;
    let ops: Vec<String> = row
        .operands
        .iter()
        .map(|spec| match spec.field {
            Field::Vaddr => addr.to_string(),
            f => vreg(rng, dwords_of(row, f).unwrap_or(1)),
        })
        .collect();
    format!("{m} {} offset0:{a} offset1:{b}", ops.join(", "))
}
