//! Assembly: the rewritten instructions laid out, branches out of `simm16`
//! range relaxed into long jumps ([`super::relax`]), branch offsets
//! resolved and `arch`'s encoder writing the bytes (after
//! [`super::waitcnt`] has added its waits).

use std::collections::HashMap;

use arch::isa::{encode, Instruction};

use super::relax::{self, dword_offset};
use super::rewrite::PItem;
use super::BackendError;

/// Instructions with their byte offsets.
pub type Listing = Vec<(u32, Instruction)>;

/// The assembled code.
#[derive(Clone, Debug, Default)]
pub struct Assembled {
    /// The final instructions with their byte offsets.
    pub listing: Listing,
    /// The machine code.
    pub bytes: Vec<u8>,
    /// Each label's byte offset.
    pub labels: HashMap<u32, u32>,
    /// The SGPR pair the long jumps use, if any (the kernel's SGPR count
    /// must cover it).
    pub long_jump_pair: Option<u16>,
    /// How many long jumps (each has one `s_getpc_b64`).
    pub long_jumps: usize,
}

/// Lays the code out: relaxes long branches, resolves branch offsets and encodes.
pub fn assemble(items: &[PItem]) -> Result<Assembled, BackendError> {
    let layout = relax::relax(items)?;
    let mut bytes = Vec::new();
    let mut listing = Vec::new();
    let mut emit = |inst: Instruction, bytes: &mut Vec<u8>| -> Result<(), BackendError> {
        let here = bytes.len() as u32;
        encode(&inst, bytes).map_err(|e| BackendError::Internal(format!("{inst}: {e}")))?;
        if bytes.len() as u32 - here != u32::from(inst.size) {
            return Err(BackendError::Internal(format!(
                "{inst}: encoded in {} bytes, laid out in {}",
                bytes.len() as u32 - here,
                inst.size
            )));
        }
        listing.push((here, inst));
        Ok(())
    };
    for (k, item) in items.iter().enumerate() {
        let PItem::Inst(i, _, target) = item else {
            continue;
        };
        let mut inst = *i;
        let here = bytes.len() as u32;
        if let Some(l) = target {
            let to = layout.labels[l];
            if layout.long[k] {
                let pair = layout.pair.ok_or_else(|| {
                    BackendError::Internal("a long jump without its SGPR pair".into())
                })?;
                for j in relax::long_jump(i, here, to, pair)? {
                    emit(j, &mut bytes)?;
                }
                continue;
            }
            let delta = dword_offset(here, to);
            let simm = i16::try_from(delta).map_err(|_| {
                BackendError::Internal(format!("a branch over {delta} dwords was not relaxed"))
            })?;
            inst.modifiers.simm16 = simm as u16;
        }
        emit(inst, &mut bytes)?;
    }
    let long_jumps = layout.long_jumps();
    Ok(Assembled {
        listing,
        bytes,
        labels: layout.labels,
        long_jump_pair: layout.pair,
        long_jumps,
    })
}
