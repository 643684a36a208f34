//! What a FLAT, GLOBAL, SCRATCH or MUBUF opcode does to memory, independent of
//! how it forms its address (the arms were listed from the gfx1030 tables).

use arch::isa::Opcode;

use super::atomic::AtomicOp;

/// How a narrow load fills its destination dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ext {
    /// Zero-extended to 32 bits (or whole dwords for dword loads).
    Zero,
    /// Sign-extended to 32 bits.
    Sign,
    /// Extended to 16 bits into the low half; the high half is kept.
    Lo16 {
        /// Sign-extend (byte loads only).
        sign: bool,
    },
    /// Extended to 16 bits into the high half; the low half is kept.
    Hi16 {
        /// Sign-extend (byte loads only).
        sign: bool,
    },
}

/// The memory effect of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Load `bytes` per lane.
    Load { bytes: u8, ext: Ext },
    /// Store `bytes` per lane; `hi` takes a narrow store's data from bits 31:16.
    Store { bytes: u8, hi: bool },
    /// Read-modify-write of 4 bytes (8 when `wide`).
    Atomic { op: AtomicOp, wide: bool },
    /// `global_load_dword_addtid`.
    LoadAddtid,
    /// `global_store_dword_addtid`.
    StoreAddtid,
    /// `buffer_gl0_inv`, `buffer_gl1_inv`.
    CacheControl,
    /// A typed (format-converting) buffer access.
    Format,
}

/// The memory effect of `op`, `None` for opcodes outside these families.
pub(super) fn kind(op: Opcode) -> Option<Kind> {
    Some(match op {
        Opcode::FLAT_LOAD_UBYTE
        | Opcode::GLOBAL_LOAD_UBYTE
        | Opcode::SCRATCH_LOAD_UBYTE
        | Opcode::BUFFER_LOAD_UBYTE => Kind::Load {
            bytes: 1,
            ext: Ext::Zero,
        },
        Opcode::FLAT_LOAD_SBYTE
        | Opcode::GLOBAL_LOAD_SBYTE
        | Opcode::SCRATCH_LOAD_SBYTE
        | Opcode::BUFFER_LOAD_SBYTE => Kind::Load {
            bytes: 1,
            ext: Ext::Sign,
        },
        Opcode::FLAT_LOAD_USHORT
        | Opcode::GLOBAL_LOAD_USHORT
        | Opcode::SCRATCH_LOAD_USHORT
        | Opcode::BUFFER_LOAD_USHORT => Kind::Load {
            bytes: 2,
            ext: Ext::Zero,
        },
        Opcode::FLAT_LOAD_SSHORT
        | Opcode::GLOBAL_LOAD_SSHORT
        | Opcode::SCRATCH_LOAD_SSHORT
        | Opcode::BUFFER_LOAD_SSHORT => Kind::Load {
            bytes: 2,
            ext: Ext::Sign,
        },
        Opcode::FLAT_LOAD_DWORD
        | Opcode::GLOBAL_LOAD_DWORD
        | Opcode::SCRATCH_LOAD_DWORD
        | Opcode::BUFFER_LOAD_DWORD => Kind::Load {
            bytes: 4,
            ext: Ext::Zero,
        },
        Opcode::FLAT_LOAD_DWORDX2
        | Opcode::GLOBAL_LOAD_DWORDX2
        | Opcode::SCRATCH_LOAD_DWORDX2
        | Opcode::BUFFER_LOAD_DWORDX2 => Kind::Load {
            bytes: 8,
            ext: Ext::Zero,
        },
        Opcode::FLAT_LOAD_DWORDX4
        | Opcode::GLOBAL_LOAD_DWORDX4
        | Opcode::SCRATCH_LOAD_DWORDX4
        | Opcode::BUFFER_LOAD_DWORDX4 => Kind::Load {
            bytes: 16,
            ext: Ext::Zero,
        },
        Opcode::FLAT_LOAD_DWORDX3
        | Opcode::GLOBAL_LOAD_DWORDX3
        | Opcode::SCRATCH_LOAD_DWORDX3
        | Opcode::BUFFER_LOAD_DWORDX3 => Kind::Load {
            bytes: 12,
            ext: Ext::Zero,
        },
        Opcode::FLAT_STORE_BYTE
        | Opcode::GLOBAL_STORE_BYTE
        | Opcode::SCRATCH_STORE_BYTE
        | Opcode::BUFFER_STORE_BYTE => Kind::Store {
            bytes: 1,
            hi: false,
        },
        Opcode::FLAT_STORE_BYTE_D16_HI
        | Opcode::GLOBAL_STORE_BYTE_D16_HI
        | Opcode::SCRATCH_STORE_BYTE_D16_HI
        | Opcode::BUFFER_STORE_BYTE_D16_HI => Kind::Store { bytes: 1, hi: true },
        Opcode::FLAT_STORE_SHORT
        | Opcode::GLOBAL_STORE_SHORT
        | Opcode::SCRATCH_STORE_SHORT
        | Opcode::BUFFER_STORE_SHORT => Kind::Store {
            bytes: 2,
            hi: false,
        },
        Opcode::FLAT_STORE_SHORT_D16_HI
        | Opcode::GLOBAL_STORE_SHORT_D16_HI
        | Opcode::SCRATCH_STORE_SHORT_D16_HI
        | Opcode::BUFFER_STORE_SHORT_D16_HI => Kind::Store { bytes: 2, hi: true },
        Opcode::FLAT_STORE_DWORD
        | Opcode::GLOBAL_STORE_DWORD
        | Opcode::SCRATCH_STORE_DWORD
        | Opcode::BUFFER_STORE_DWORD => Kind::Store {
            bytes: 4,
            hi: false,
        },
        Opcode::FLAT_STORE_DWORDX2
        | Opcode::GLOBAL_STORE_DWORDX2
        | Opcode::SCRATCH_STORE_DWORDX2
        | Opcode::BUFFER_STORE_DWORDX2 => Kind::Store {
            bytes: 8,
            hi: false,
        },
        Opcode::FLAT_STORE_DWORDX4
        | Opcode::GLOBAL_STORE_DWORDX4
        | Opcode::SCRATCH_STORE_DWORDX4
        | Opcode::BUFFER_STORE_DWORDX4 => Kind::Store {
            bytes: 16,
            hi: false,
        },
        Opcode::FLAT_STORE_DWORDX3
        | Opcode::GLOBAL_STORE_DWORDX3
        | Opcode::SCRATCH_STORE_DWORDX3
        | Opcode::BUFFER_STORE_DWORDX3 => Kind::Store {
            bytes: 12,
            hi: false,
        },
        Opcode::FLAT_LOAD_UBYTE_D16
        | Opcode::GLOBAL_LOAD_UBYTE_D16
        | Opcode::SCRATCH_LOAD_UBYTE_D16
        | Opcode::BUFFER_LOAD_UBYTE_D16 => Kind::Load {
            bytes: 1,
            ext: Ext::Lo16 { sign: false },
        },
        Opcode::FLAT_LOAD_UBYTE_D16_HI
        | Opcode::GLOBAL_LOAD_UBYTE_D16_HI
        | Opcode::SCRATCH_LOAD_UBYTE_D16_HI
        | Opcode::BUFFER_LOAD_UBYTE_D16_HI => Kind::Load {
            bytes: 1,
            ext: Ext::Hi16 { sign: false },
        },
        Opcode::FLAT_LOAD_SBYTE_D16
        | Opcode::GLOBAL_LOAD_SBYTE_D16
        | Opcode::SCRATCH_LOAD_SBYTE_D16
        | Opcode::BUFFER_LOAD_SBYTE_D16 => Kind::Load {
            bytes: 1,
            ext: Ext::Lo16 { sign: true },
        },
        Opcode::FLAT_LOAD_SBYTE_D16_HI
        | Opcode::GLOBAL_LOAD_SBYTE_D16_HI
        | Opcode::SCRATCH_LOAD_SBYTE_D16_HI
        | Opcode::BUFFER_LOAD_SBYTE_D16_HI => Kind::Load {
            bytes: 1,
            ext: Ext::Hi16 { sign: true },
        },
        Opcode::FLAT_LOAD_SHORT_D16
        | Opcode::GLOBAL_LOAD_SHORT_D16
        | Opcode::SCRATCH_LOAD_SHORT_D16
        | Opcode::BUFFER_LOAD_SHORT_D16 => Kind::Load {
            bytes: 2,
            ext: Ext::Lo16 { sign: false },
        },
        Opcode::FLAT_LOAD_SHORT_D16_HI
        | Opcode::GLOBAL_LOAD_SHORT_D16_HI
        | Opcode::SCRATCH_LOAD_SHORT_D16_HI
        | Opcode::BUFFER_LOAD_SHORT_D16_HI => Kind::Load {
            bytes: 2,
            ext: Ext::Hi16 { sign: false },
        },
        Opcode::FLAT_ATOMIC_SWAP | Opcode::GLOBAL_ATOMIC_SWAP | Opcode::BUFFER_ATOMIC_SWAP => {
            Kind::Atomic {
                op: AtomicOp::Swap,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_CMPSWAP
        | Opcode::GLOBAL_ATOMIC_CMPSWAP
        | Opcode::BUFFER_ATOMIC_CMPSWAP => Kind::Atomic {
            op: AtomicOp::Cmpswap,
            wide: false,
        },
        Opcode::FLAT_ATOMIC_ADD | Opcode::GLOBAL_ATOMIC_ADD | Opcode::BUFFER_ATOMIC_ADD => {
            Kind::Atomic {
                op: AtomicOp::Add,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_SUB | Opcode::GLOBAL_ATOMIC_SUB | Opcode::BUFFER_ATOMIC_SUB => {
            Kind::Atomic {
                op: AtomicOp::Sub,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_SMIN | Opcode::GLOBAL_ATOMIC_SMIN | Opcode::BUFFER_ATOMIC_SMIN => {
            Kind::Atomic {
                op: AtomicOp::Smin,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_UMIN | Opcode::GLOBAL_ATOMIC_UMIN | Opcode::BUFFER_ATOMIC_UMIN => {
            Kind::Atomic {
                op: AtomicOp::Umin,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_SMAX | Opcode::GLOBAL_ATOMIC_SMAX | Opcode::BUFFER_ATOMIC_SMAX => {
            Kind::Atomic {
                op: AtomicOp::Smax,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_UMAX | Opcode::GLOBAL_ATOMIC_UMAX | Opcode::BUFFER_ATOMIC_UMAX => {
            Kind::Atomic {
                op: AtomicOp::Umax,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_AND | Opcode::GLOBAL_ATOMIC_AND | Opcode::BUFFER_ATOMIC_AND => {
            Kind::Atomic {
                op: AtomicOp::And,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_OR | Opcode::GLOBAL_ATOMIC_OR | Opcode::BUFFER_ATOMIC_OR => {
            Kind::Atomic {
                op: AtomicOp::Or,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_XOR | Opcode::GLOBAL_ATOMIC_XOR | Opcode::BUFFER_ATOMIC_XOR => {
            Kind::Atomic {
                op: AtomicOp::Xor,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_INC | Opcode::GLOBAL_ATOMIC_INC | Opcode::BUFFER_ATOMIC_INC => {
            Kind::Atomic {
                op: AtomicOp::Inc,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_DEC | Opcode::GLOBAL_ATOMIC_DEC | Opcode::BUFFER_ATOMIC_DEC => {
            Kind::Atomic {
                op: AtomicOp::Dec,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_FCMPSWAP
        | Opcode::GLOBAL_ATOMIC_FCMPSWAP
        | Opcode::BUFFER_ATOMIC_FCMPSWAP => Kind::Atomic {
            op: AtomicOp::Fcmpswap,
            wide: false,
        },
        Opcode::FLAT_ATOMIC_FMIN | Opcode::GLOBAL_ATOMIC_FMIN | Opcode::BUFFER_ATOMIC_FMIN => {
            Kind::Atomic {
                op: AtomicOp::Fmin,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_FMAX | Opcode::GLOBAL_ATOMIC_FMAX | Opcode::BUFFER_ATOMIC_FMAX => {
            Kind::Atomic {
                op: AtomicOp::Fmax,
                wide: false,
            }
        }
        Opcode::FLAT_ATOMIC_SWAP_X2
        | Opcode::GLOBAL_ATOMIC_SWAP_X2
        | Opcode::BUFFER_ATOMIC_SWAP_X2 => Kind::Atomic {
            op: AtomicOp::Swap,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_CMPSWAP_X2
        | Opcode::GLOBAL_ATOMIC_CMPSWAP_X2
        | Opcode::BUFFER_ATOMIC_CMPSWAP_X2 => Kind::Atomic {
            op: AtomicOp::Cmpswap,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_ADD_X2
        | Opcode::GLOBAL_ATOMIC_ADD_X2
        | Opcode::BUFFER_ATOMIC_ADD_X2 => Kind::Atomic {
            op: AtomicOp::Add,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_SUB_X2
        | Opcode::GLOBAL_ATOMIC_SUB_X2
        | Opcode::BUFFER_ATOMIC_SUB_X2 => Kind::Atomic {
            op: AtomicOp::Sub,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_SMIN_X2
        | Opcode::GLOBAL_ATOMIC_SMIN_X2
        | Opcode::BUFFER_ATOMIC_SMIN_X2 => Kind::Atomic {
            op: AtomicOp::Smin,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_UMIN_X2
        | Opcode::GLOBAL_ATOMIC_UMIN_X2
        | Opcode::BUFFER_ATOMIC_UMIN_X2 => Kind::Atomic {
            op: AtomicOp::Umin,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_SMAX_X2
        | Opcode::GLOBAL_ATOMIC_SMAX_X2
        | Opcode::BUFFER_ATOMIC_SMAX_X2 => Kind::Atomic {
            op: AtomicOp::Smax,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_UMAX_X2
        | Opcode::GLOBAL_ATOMIC_UMAX_X2
        | Opcode::BUFFER_ATOMIC_UMAX_X2 => Kind::Atomic {
            op: AtomicOp::Umax,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_AND_X2
        | Opcode::GLOBAL_ATOMIC_AND_X2
        | Opcode::BUFFER_ATOMIC_AND_X2 => Kind::Atomic {
            op: AtomicOp::And,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_OR_X2 | Opcode::GLOBAL_ATOMIC_OR_X2 | Opcode::BUFFER_ATOMIC_OR_X2 => {
            Kind::Atomic {
                op: AtomicOp::Or,
                wide: true,
            }
        }
        Opcode::FLAT_ATOMIC_XOR_X2
        | Opcode::GLOBAL_ATOMIC_XOR_X2
        | Opcode::BUFFER_ATOMIC_XOR_X2 => Kind::Atomic {
            op: AtomicOp::Xor,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_INC_X2
        | Opcode::GLOBAL_ATOMIC_INC_X2
        | Opcode::BUFFER_ATOMIC_INC_X2 => Kind::Atomic {
            op: AtomicOp::Inc,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_DEC_X2
        | Opcode::GLOBAL_ATOMIC_DEC_X2
        | Opcode::BUFFER_ATOMIC_DEC_X2 => Kind::Atomic {
            op: AtomicOp::Dec,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_FCMPSWAP_X2
        | Opcode::GLOBAL_ATOMIC_FCMPSWAP_X2
        | Opcode::BUFFER_ATOMIC_FCMPSWAP_X2 => Kind::Atomic {
            op: AtomicOp::Fcmpswap,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_FMIN_X2
        | Opcode::GLOBAL_ATOMIC_FMIN_X2
        | Opcode::BUFFER_ATOMIC_FMIN_X2 => Kind::Atomic {
            op: AtomicOp::Fmin,
            wide: true,
        },
        Opcode::FLAT_ATOMIC_FMAX_X2
        | Opcode::GLOBAL_ATOMIC_FMAX_X2
        | Opcode::BUFFER_ATOMIC_FMAX_X2 => Kind::Atomic {
            op: AtomicOp::Fmax,
            wide: true,
        },
        Opcode::GLOBAL_LOAD_DWORD_ADDTID => Kind::LoadAddtid,
        Opcode::GLOBAL_STORE_DWORD_ADDTID => Kind::StoreAddtid,
        Opcode::GLOBAL_ATOMIC_CSUB | Opcode::BUFFER_ATOMIC_CSUB => Kind::Atomic {
            op: AtomicOp::Csub,
            wide: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_X
        | Opcode::BUFFER_LOAD_FORMAT_XY
        | Opcode::BUFFER_LOAD_FORMAT_XYZ
        | Opcode::BUFFER_LOAD_FORMAT_XYZW
        | Opcode::BUFFER_STORE_FORMAT_X
        | Opcode::BUFFER_STORE_FORMAT_XY
        | Opcode::BUFFER_STORE_FORMAT_XYZ
        | Opcode::BUFFER_STORE_FORMAT_XYZW
        | Opcode::BUFFER_LOAD_FORMAT_D16_HI_X
        | Opcode::BUFFER_STORE_FORMAT_D16_HI_X
        | Opcode::BUFFER_LOAD_FORMAT_D16_X
        | Opcode::BUFFER_LOAD_FORMAT_D16_XY
        | Opcode::BUFFER_LOAD_FORMAT_D16_XYZ
        | Opcode::BUFFER_LOAD_FORMAT_D16_XYZW
        | Opcode::BUFFER_STORE_FORMAT_D16_X
        | Opcode::BUFFER_STORE_FORMAT_D16_XY
        | Opcode::BUFFER_STORE_FORMAT_D16_XYZ
        | Opcode::BUFFER_STORE_FORMAT_D16_XYZW => Kind::Format,
        Opcode::BUFFER_GL0_INV | Opcode::BUFFER_GL1_INV => Kind::CacheControl,
        _ => return None,
    })
}
