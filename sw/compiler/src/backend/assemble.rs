//! Assembly: the rewritten instructions laid out, branch offsets resolved
//! and `arch`'s encoder writing the bytes (after [`super::waitcnt`] has
//! added its waits).

use arch::isa::{encode, Instruction};

use super::rewrite::PItem;
use super::BackendError;

/// Instructions with their byte offsets.
pub type Listing = Vec<(u32, Instruction)>;

/// Each label's byte offset in the assembled code.
pub fn label_offsets(items: &[PItem]) -> std::collections::HashMap<u32, u32> {
    let mut labels = std::collections::HashMap::new();
    let mut at = 0u32;
    for item in items {
        match item {
            PItem::Label(l) => {
                labels.insert(*l, at);
            }
            PItem::Inst(i, _, _) => at += u32::from(i.size),
        }
    }
    labels
}

/// Lays the code out: resolves branch offsets and encodes. Returns the
/// final instructions (with their offsets) and the bytes.
pub fn assemble(items: &[PItem]) -> Result<(Listing, Vec<u8>), BackendError> {
    let mut labels = std::collections::HashMap::new();
    let mut at = 0u32;
    for item in items {
        match item {
            PItem::Label(l) => {
                labels.insert(*l, at);
            }
            PItem::Inst(i, _, _) => at += u32::from(i.size),
        }
    }
    let mut bytes = Vec::with_capacity(at as usize);
    let mut listing = Vec::new();
    for item in items {
        let PItem::Inst(i, _, target) = item else {
            continue;
        };
        let mut inst = *i;
        let here = bytes.len() as u32;
        if let Some(l) = target {
            let to = labels[l];
            let delta = (i64::from(to) - i64::from(here) - 4) / 4;
            let simm = i16::try_from(delta).map_err(|_| {
                BackendError::Unsupported(format!(
                    "a branch over {delta} dwords does not fit s_branch"
                ))
            })?;
            inst.modifiers.simm16 = simm as u16;
        }
        encode(&inst, &mut bytes).map_err(|e| BackendError::Internal(format!("{inst}: {e}")))?;
        listing.push((here, inst));
    }
    Ok((listing, bytes))
}
