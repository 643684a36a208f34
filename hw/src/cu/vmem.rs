//! Vector memory unit: coalesces the lane addresses of one instruction into
//! cache-line requests (all lanes touching one line → one request) and queues
//! them for the memory system; completion is tracked per instruction.

use std::collections::VecDeque;

use arbitrary_int::{u2, u48};

use super::wave::counter;
use crate::exec::MemOp;
use crate::mem::{Access, MemRequest, Unit};

traces::signals! {
/// The vector memory unit (`gpu.cuN.vmem`): the coalescer's output queue of
/// cache-line requests (scalar memory requests share it) and the request
/// port into the memory hierarchy.
#[derive(Clone, Debug, Default)]
pub struct Vmem {
    /// A request entered the memory system this cycle.
    pub req_valid: bool,
    /// Its unit (0 instruction, 1 scalar, 2 vector).
    pub req_unit: u2,
    /// Its line address (first byte requested).
    pub line_addr: u48,
    /// Requests waiting in the coalescer's output queue.
    pub queued: u16,
    /// The head request was refused by the memory system this cycle.
    pub blocked: bool,
    /// Requests sent and not yet answered.
    pub outstanding: u32,
    /// The queue.
    @untraced
    pub queue: VecDeque<(Unit, MemRequest)>,
}
}

impl Vmem {
    /// Notes that request `r` of `unit` was sent this cycle.
    #[inline]
    pub fn sent(&mut self, unit: Unit, r: &MemRequest) {
        self.req_valid = true;
        self.req_unit = u2::new(match unit {
            Unit::Scalar => 1,
            Unit::Vector => 2,
            _ => 0,
        });
        self.line_addr = u48::new(r.address & ((1 << 48) - 1));
        self.outstanding += 1;
    }
}

impl Vmem {
    /// Why a vector or scalar memory instruction cannot issue (the
    /// coalescer's output queue holds `depth` requests or more), if it cannot.
    #[inline]
    pub fn stall(&self, depth: u32) -> Option<crate::stats::Stall> {
        (self.queue.len() >= depth as usize).then_some(crate::stats::Stall::Backpressure)
    }
}

/// The waitcnt counter a memory operation counts on, and the second one it
/// also counts on: FLAT may reach either memory, so it counts on
/// vmcnt/vscnt and on lgkmcnt alike (RDNA2 ISA guide, "Data dependency
/// resolution"); both come down when it completes.
pub fn counters(op: MemOp, flat: bool) -> (usize, Option<usize>) {
    let c = match op {
        MemOp::ScalarLoad | MemOp::Lds => counter::LGKM,
        MemOp::VectorStore | MemOp::VectorAtomic { returns: false } => counter::VS,
        _ => counter::VM,
    };
    let also = flat.then_some(if c == counter::LGKM {
        counter::VM
    } else {
        counter::LGKM
    });
    (c, also)
}

/// The memory-system port and access kind of a scalar or vector memory operation.
pub fn request_kind(op: MemOp) -> (Unit, Access) {
    match op {
        MemOp::ScalarLoad => (Unit::Scalar, Access::Read),
        MemOp::VectorLoad => (Unit::Vector, Access::Read),
        MemOp::VectorStore => (Unit::Vector, Access::Write),
        MemOp::VectorAtomic { returns } => (Unit::Vector, Access::Atomic { returns }),
        _ => (Unit::Vector, Access::Read),
    }
}

/// Appends one request per distinct line touched by `lanes`, in first-touch
/// order, to `out`; returns how many were added.
pub fn coalesce(
    lanes: &[(u8, u64, u8)],
    line_bytes: u32,
    access: Access,
    tag: u16,
    bypass: bool,
    out: &mut impl Extend<MemRequest>,
    seen: &mut Vec<(u64, u16, u16)>,
) -> u32 {
    let lb = u64::from(line_bytes);
    seen.clear();
    for &(_, addr, bytes) in lanes {
        let last = addr + u64::from(bytes.max(1)) - 1;
        let mut line = addr / lb;
        while line <= last / lb {
            let lo = addr.max(line * lb) - line * lb;
            let hi = last.min(line * lb + lb - 1) - line * lb;
            match seen.iter_mut().find(|s| s.0 == line) {
                Some(s) => {
                    s.1 = s.1.min(lo as u16);
                    s.2 = s.2.max(hi as u16);
                }
                None => seen.push((line, lo as u16, hi as u16)),
            }
            line += 1;
        }
    }
    out.extend(seen.iter().map(|&(line, lo, hi)| MemRequest {
        tag,
        access,
        address: line * lb + u64::from(lo),
        bytes: hi - lo + 1,
        bypass,
    }));
    seen.len() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_distinct_line() {
        let mut out = Vec::new();
        let mut seen = Vec::new();
        let unit: Vec<_> = (0..32u8)
            .map(|l| (l, 0x1000 + u64::from(l) * 4, 4))
            .collect();
        assert_eq!(
            coalesce(&unit, 128, Access::Read, 7, false, &mut out, &mut seen),
            1
        );
        assert_eq!((out[0].address, out[0].bytes, out[0].tag), (0x1000, 128, 7));
        out.clear();
        // Misaligned by 4: two lines.
        let off: Vec<_> = (0..32u8)
            .map(|l| (l, 0x1004 + u64::from(l) * 4, 4))
            .collect();
        assert_eq!(
            coalesce(&off, 128, Access::Read, 0, false, &mut out, &mut seen),
            2
        );
        assert_eq!((out[1].address, out[1].bytes), (0x1080, 4));
        out.clear();
        // Stride of a line: one request per lane.
        let strided: Vec<_> = (0..32u8).map(|l| (l, u64::from(l) * 128, 4)).collect();
        assert_eq!(
            coalesce(&strided, 128, Access::Write, 0, false, &mut out, &mut seen),
            32
        );
    }
}
