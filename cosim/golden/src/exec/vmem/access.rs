//! What each FLAT/GLOBAL/SCRATCH and MUBUF opcode does to memory: one table
//! for the four opcode spaces (the same operation has the same semantics in
//! each).

use arch::isa::Opcode;

use super::atomic::AtomicOp;
use super::{Load, Store};

/// The memory operation of a vector memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A load.
    Load(Load),
    /// A store.
    Store(Store),
    /// An atomic; `true` for the 64-bit (`_x2`) form.
    Atomic(AtomicOp, bool),
}

/// The operation of `op`, or `None` when it is not a plain load, store or atomic.
pub fn classify(op: Opcode) -> Option<Access> {
    use AtomicOp as A;
    use Opcode::*;
    let d16 = |bytes, signed, hi| Access::Load(Load::D16 { bytes, signed, hi });
    let a32 = |a| Access::Atomic(a, false);
    let a64 = |a| Access::Atomic(a, true);
    Some(match op {
        FLAT_LOAD_UBYTE | GLOBAL_LOAD_UBYTE | SCRATCH_LOAD_UBYTE | BUFFER_LOAD_UBYTE => {
            Access::Load(Load::U8)
        }
        FLAT_LOAD_SBYTE | GLOBAL_LOAD_SBYTE | SCRATCH_LOAD_SBYTE | BUFFER_LOAD_SBYTE => {
            Access::Load(Load::I8)
        }
        FLAT_LOAD_USHORT | GLOBAL_LOAD_USHORT | SCRATCH_LOAD_USHORT | BUFFER_LOAD_USHORT => {
            Access::Load(Load::U16)
        }
        FLAT_LOAD_SSHORT | GLOBAL_LOAD_SSHORT | SCRATCH_LOAD_SSHORT | BUFFER_LOAD_SSHORT => {
            Access::Load(Load::I16)
        }
        FLAT_LOAD_DWORD
        | GLOBAL_LOAD_DWORD
        | SCRATCH_LOAD_DWORD
        | BUFFER_LOAD_DWORD
        | GLOBAL_LOAD_DWORD_ADDTID => Access::Load(Load::Dwords(1)),
        FLAT_LOAD_DWORDX2 | GLOBAL_LOAD_DWORDX2 | SCRATCH_LOAD_DWORDX2 | BUFFER_LOAD_DWORDX2 => {
            Access::Load(Load::Dwords(2))
        }
        FLAT_LOAD_DWORDX3 | GLOBAL_LOAD_DWORDX3 | SCRATCH_LOAD_DWORDX3 | BUFFER_LOAD_DWORDX3 => {
            Access::Load(Load::Dwords(3))
        }
        FLAT_LOAD_DWORDX4 | GLOBAL_LOAD_DWORDX4 | SCRATCH_LOAD_DWORDX4 | BUFFER_LOAD_DWORDX4 => {
            Access::Load(Load::Dwords(4))
        }
        FLAT_LOAD_UBYTE_D16
        | GLOBAL_LOAD_UBYTE_D16
        | SCRATCH_LOAD_UBYTE_D16
        | BUFFER_LOAD_UBYTE_D16 => d16(1, false, false),
        FLAT_LOAD_UBYTE_D16_HI
        | GLOBAL_LOAD_UBYTE_D16_HI
        | SCRATCH_LOAD_UBYTE_D16_HI
        | BUFFER_LOAD_UBYTE_D16_HI => d16(1, false, true),
        FLAT_LOAD_SBYTE_D16
        | GLOBAL_LOAD_SBYTE_D16
        | SCRATCH_LOAD_SBYTE_D16
        | BUFFER_LOAD_SBYTE_D16 => d16(1, true, false),
        FLAT_LOAD_SBYTE_D16_HI
        | GLOBAL_LOAD_SBYTE_D16_HI
        | SCRATCH_LOAD_SBYTE_D16_HI
        | BUFFER_LOAD_SBYTE_D16_HI => d16(1, true, true),
        FLAT_LOAD_SHORT_D16
        | GLOBAL_LOAD_SHORT_D16
        | SCRATCH_LOAD_SHORT_D16
        | BUFFER_LOAD_SHORT_D16 => d16(2, false, false),
        FLAT_LOAD_SHORT_D16_HI
        | GLOBAL_LOAD_SHORT_D16_HI
        | SCRATCH_LOAD_SHORT_D16_HI
        | BUFFER_LOAD_SHORT_D16_HI => d16(2, false, true),
        FLAT_STORE_BYTE | GLOBAL_STORE_BYTE | SCRATCH_STORE_BYTE | BUFFER_STORE_BYTE => {
            Access::Store(Store::B8)
        }
        FLAT_STORE_BYTE_D16_HI
        | GLOBAL_STORE_BYTE_D16_HI
        | SCRATCH_STORE_BYTE_D16_HI
        | BUFFER_STORE_BYTE_D16_HI => Access::Store(Store::B8Hi),
        FLAT_STORE_SHORT | GLOBAL_STORE_SHORT | SCRATCH_STORE_SHORT | BUFFER_STORE_SHORT => {
            Access::Store(Store::B16)
        }
        FLAT_STORE_SHORT_D16_HI
        | GLOBAL_STORE_SHORT_D16_HI
        | SCRATCH_STORE_SHORT_D16_HI
        | BUFFER_STORE_SHORT_D16_HI => Access::Store(Store::B16Hi),
        FLAT_STORE_DWORD
        | GLOBAL_STORE_DWORD
        | SCRATCH_STORE_DWORD
        | BUFFER_STORE_DWORD
        | GLOBAL_STORE_DWORD_ADDTID => Access::Store(Store::Dwords(1)),
        FLAT_STORE_DWORDX2
        | GLOBAL_STORE_DWORDX2
        | SCRATCH_STORE_DWORDX2
        | BUFFER_STORE_DWORDX2 => Access::Store(Store::Dwords(2)),
        FLAT_STORE_DWORDX3
        | GLOBAL_STORE_DWORDX3
        | SCRATCH_STORE_DWORDX3
        | BUFFER_STORE_DWORDX3 => Access::Store(Store::Dwords(3)),
        FLAT_STORE_DWORDX4
        | GLOBAL_STORE_DWORDX4
        | SCRATCH_STORE_DWORDX4
        | BUFFER_STORE_DWORDX4 => Access::Store(Store::Dwords(4)),
        FLAT_ATOMIC_SWAP | GLOBAL_ATOMIC_SWAP | BUFFER_ATOMIC_SWAP => a32(A::Swap),
        FLAT_ATOMIC_CMPSWAP | GLOBAL_ATOMIC_CMPSWAP | BUFFER_ATOMIC_CMPSWAP => a32(A::CmpSwap),
        FLAT_ATOMIC_FCMPSWAP | GLOBAL_ATOMIC_FCMPSWAP | BUFFER_ATOMIC_FCMPSWAP => a32(A::FCmpSwap),
        FLAT_ATOMIC_ADD | GLOBAL_ATOMIC_ADD | BUFFER_ATOMIC_ADD => a32(A::Add),
        FLAT_ATOMIC_SUB | GLOBAL_ATOMIC_SUB | BUFFER_ATOMIC_SUB => a32(A::Sub),
        GLOBAL_ATOMIC_CSUB | BUFFER_ATOMIC_CSUB => a32(A::Csub),
        FLAT_ATOMIC_SMIN | GLOBAL_ATOMIC_SMIN | BUFFER_ATOMIC_SMIN => a32(A::Smin),
        FLAT_ATOMIC_UMIN | GLOBAL_ATOMIC_UMIN | BUFFER_ATOMIC_UMIN => a32(A::Umin),
        FLAT_ATOMIC_SMAX | GLOBAL_ATOMIC_SMAX | BUFFER_ATOMIC_SMAX => a32(A::Smax),
        FLAT_ATOMIC_UMAX | GLOBAL_ATOMIC_UMAX | BUFFER_ATOMIC_UMAX => a32(A::Umax),
        FLAT_ATOMIC_AND | GLOBAL_ATOMIC_AND | BUFFER_ATOMIC_AND => a32(A::And),
        FLAT_ATOMIC_OR | GLOBAL_ATOMIC_OR | BUFFER_ATOMIC_OR => a32(A::Or),
        FLAT_ATOMIC_XOR | GLOBAL_ATOMIC_XOR | BUFFER_ATOMIC_XOR => a32(A::Xor),
        FLAT_ATOMIC_INC | GLOBAL_ATOMIC_INC | BUFFER_ATOMIC_INC => a32(A::Inc),
        FLAT_ATOMIC_DEC | GLOBAL_ATOMIC_DEC | BUFFER_ATOMIC_DEC => a32(A::Dec),
        FLAT_ATOMIC_FMIN | GLOBAL_ATOMIC_FMIN | BUFFER_ATOMIC_FMIN => a32(A::Fmin),
        FLAT_ATOMIC_FMAX | GLOBAL_ATOMIC_FMAX | BUFFER_ATOMIC_FMAX => a32(A::Fmax),
        FLAT_ATOMIC_SWAP_X2 | GLOBAL_ATOMIC_SWAP_X2 | BUFFER_ATOMIC_SWAP_X2 => a64(A::Swap),
        FLAT_ATOMIC_CMPSWAP_X2 | GLOBAL_ATOMIC_CMPSWAP_X2 | BUFFER_ATOMIC_CMPSWAP_X2 => {
            a64(A::CmpSwap)
        }
        FLAT_ATOMIC_FCMPSWAP_X2 | GLOBAL_ATOMIC_FCMPSWAP_X2 | BUFFER_ATOMIC_FCMPSWAP_X2 => {
            a64(A::FCmpSwap)
        }
        FLAT_ATOMIC_ADD_X2 | GLOBAL_ATOMIC_ADD_X2 | BUFFER_ATOMIC_ADD_X2 => a64(A::Add),
        FLAT_ATOMIC_SUB_X2 | GLOBAL_ATOMIC_SUB_X2 | BUFFER_ATOMIC_SUB_X2 => a64(A::Sub),
        FLAT_ATOMIC_SMIN_X2 | GLOBAL_ATOMIC_SMIN_X2 | BUFFER_ATOMIC_SMIN_X2 => a64(A::Smin),
        FLAT_ATOMIC_UMIN_X2 | GLOBAL_ATOMIC_UMIN_X2 | BUFFER_ATOMIC_UMIN_X2 => a64(A::Umin),
        FLAT_ATOMIC_SMAX_X2 | GLOBAL_ATOMIC_SMAX_X2 | BUFFER_ATOMIC_SMAX_X2 => a64(A::Smax),
        FLAT_ATOMIC_UMAX_X2 | GLOBAL_ATOMIC_UMAX_X2 | BUFFER_ATOMIC_UMAX_X2 => a64(A::Umax),
        FLAT_ATOMIC_AND_X2 | GLOBAL_ATOMIC_AND_X2 | BUFFER_ATOMIC_AND_X2 => a64(A::And),
        FLAT_ATOMIC_OR_X2 | GLOBAL_ATOMIC_OR_X2 | BUFFER_ATOMIC_OR_X2 => a64(A::Or),
        FLAT_ATOMIC_XOR_X2 | GLOBAL_ATOMIC_XOR_X2 | BUFFER_ATOMIC_XOR_X2 => a64(A::Xor),
        FLAT_ATOMIC_INC_X2 | GLOBAL_ATOMIC_INC_X2 | BUFFER_ATOMIC_INC_X2 => a64(A::Inc),
        FLAT_ATOMIC_DEC_X2 | GLOBAL_ATOMIC_DEC_X2 | BUFFER_ATOMIC_DEC_X2 => a64(A::Dec),
        FLAT_ATOMIC_FMIN_X2 | GLOBAL_ATOMIC_FMIN_X2 | BUFFER_ATOMIC_FMIN_X2 => a64(A::Fmin),
        FLAT_ATOMIC_FMAX_X2 | GLOBAL_ATOMIC_FMAX_X2 | BUFFER_ATOMIC_FMAX_X2 => a64(A::Fmax),
        _ => return None,
    })
}

impl Access {
    /// Bytes one lane moves (the memory operand's size; an atomic's value size).
    pub fn bytes(self) -> usize {
        match self {
            Access::Load(l) => l.bytes(),
            Access::Store(Store::B8 | Store::B8Hi) => 1,
            Access::Store(Store::B16 | Store::B16Hi) => 2,
            Access::Store(Store::Dwords(n)) => 4 * usize::from(n),
            Access::Atomic(_, wide) => {
                if wide {
                    8
                } else {
                    4
                }
            }
        }
    }
}
