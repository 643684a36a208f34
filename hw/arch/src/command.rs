//! Channel entries and command blocks: the formats the front end reads from memory.
//!
//! A channel is a ring of [`ChannelEntry`]s (8 bytes each). Each entry points to a
//! command block: a sequence of commands, each one header dword
//! ([`CommandHeader`]) followed by its payload dwords.
//!
//! ```text
//! entry (64 bits):   [63:48] length in dwords   [47:0] block byte address (4-aligned)
//! header (32 bits):  [31:16] payload dwords     [15:8] reserved (0)   [7:0] opcode
//! ```

use arbitrary_int::{u48, Number};
use thiserror::Error;

/// Bytes per channel entry.
pub const ENTRY_BYTES: u64 = 8;

/// One channel entry: where a command block is and how long it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelEntry {
    /// Device byte address of the command block (4-byte aligned, 48 bits).
    pub address: u48,
    /// Length of the block in dwords (a block is never empty).
    pub length_dwords: u16,
}

impl ChannelEntry {
    /// Builds an entry; `address` must be 4-aligned and below 2^48, the block non-empty.
    pub fn new(address: u64, length_dwords: u16) -> Result<ChannelEntry, CommandError> {
        if address % 4 != 0 || address >> 48 != 0 {
            return Err(CommandError::BadBlockAddress(address));
        }
        if length_dwords == 0 {
            return Err(CommandError::EmptyBlock);
        }
        Ok(ChannelEntry {
            address: u48::new(address),
            length_dwords,
        })
    }

    /// The 64-bit memory image.
    pub fn to_bits(self) -> u64 {
        self.address.value() | (u64::from(self.length_dwords) << 48)
    }

    /// Reads the memory image, checking alignment and length.
    pub fn from_bits(bits: u64) -> Result<ChannelEntry, CommandError> {
        ChannelEntry::new(bits & u48::MAX.value(), (bits >> 48) as u16)
    }
}

/// Command opcodes (header bits \[7:0\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CommandOpcode {
    /// Does nothing; its payload is skipped.
    Nop = 0x00,
    /// Launches a kernel; the payload is an HSA kernel-dispatch packet (16 dwords).
    Dispatch = 0x01,
    /// Waits until every wave of every earlier dispatch has ended and all their memory
    /// writes are complete.
    WaitForIdle = 0x02,
    /// Blocks the channel until the 32-bit word at the address satisfies the compare.
    SemaphoreAcquire = 0x03,
    /// Writes the 32-bit payload to the address.
    SemaphoreRelease = 0x04,
}

impl CommandOpcode {
    /// Decodes header bits \[7:0\].
    pub fn from_u8(v: u8) -> Option<CommandOpcode> {
        Some(match v {
            0x00 => CommandOpcode::Nop,
            0x01 => CommandOpcode::Dispatch,
            0x02 => CommandOpcode::WaitForIdle,
            0x03 => CommandOpcode::SemaphoreAcquire,
            0x04 => CommandOpcode::SemaphoreRelease,
            _ => return None,
        })
    }

    /// Payload dwords the command must have (NOP: any).
    pub fn payload_dwords(self) -> Option<u16> {
        match self {
            CommandOpcode::Nop => None,
            CommandOpcode::Dispatch => Some(DISPATCH_PACKET_DWORDS),
            CommandOpcode::WaitForIdle => Some(0),
            CommandOpcode::SemaphoreAcquire => Some(4),
            CommandOpcode::SemaphoreRelease => Some(3),
        }
    }
}

/// A command header dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandHeader {
    /// What the command does.
    pub opcode: CommandOpcode,
    /// Payload dwords that follow.
    pub payload_dwords: u16,
}

impl CommandHeader {
    /// The header dword.
    pub fn to_bits(self) -> u32 {
        self.opcode as u32 | (u32::from(self.payload_dwords) << 16)
    }

    /// Decodes and validates a header dword.
    pub fn from_bits(bits: u32) -> Result<CommandHeader, CommandError> {
        let opcode =
            CommandOpcode::from_u8(bits as u8).ok_or(CommandError::UnknownOpcode(bits as u8))?;
        if (bits >> 8) & 0xff != 0 {
            return Err(CommandError::ReservedBits(bits));
        }
        let payload_dwords = (bits >> 16) as u16;
        if let Some(want) = opcode.payload_dwords() {
            if want != payload_dwords {
                return Err(CommandError::PayloadLength {
                    opcode,
                    want,
                    got: payload_dwords,
                });
            }
        }
        Ok(CommandHeader {
            opcode,
            payload_dwords,
        })
    }
}

/// Dwords in a DISPATCH payload: an `hsa_kernel_dispatch_packet_t`.
pub const DISPATCH_PACKET_DWORDS: u16 = 16;

/// The DISPATCH payload, laid out exactly as HSA's kernel-dispatch packet so the
/// dispatcher can hand its address to the kernel as `dispatch_ptr` (kernels read
/// their workgroup and grid sizes from it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchPacket {
    /// Number of dimensions used (1–3), stored in the packet's `setup` field.
    pub dimensions: u16,
    /// Workgroup size per dimension.
    pub workgroup_size: [u16; 3],
    /// Grid size in work-items per dimension.
    pub grid_size: [u32; 3],
    /// Private (scratch) bytes per work-item beyond the kernel's own fixed size.
    pub private_segment_size: u32,
    /// Dynamic LDS bytes per workgroup beyond the kernel's own fixed size.
    pub group_segment_size: u32,
    /// Device address of the 64-byte kernel descriptor.
    pub kernel_object: u64,
    /// Device address of the kernarg segment.
    pub kernarg_address: u64,
    /// Device address of the scratch backing store for this dispatch (0 if none).
    /// Stored in HSA's `reserved2` slot.
    pub scratch_address: u64,
    /// Semaphore word written with 1 when the dispatch completes (0 for none); HSA's
    /// `completion_signal` slot.
    pub completion_signal: u64,
    /// The driver's first indication of the issue order for waves wider than
    /// their SIMD (seed 000 §4, docs/variable-wavefront.md); bits 17:16 of
    /// dword 2 (HSA's `reserved0`, zero from HSA runtimes: no indication).
    pub subvector_hint: SubvectorHint,
    /// VGPRs at the top of the kernel's allocation that the parts of a wave
    /// share in sub-vector looping order (seed 000 §2; from the code object's
    /// sub-vector note or the workload); bits 31:24 of dword 2 (HSA's
    /// `reserved0`, zero from HSA runtimes: nothing shared).
    pub shared_vgprs: u8,
}

/// The per-dispatch issue-order setting of seed 000 §4 (the software's first
/// indication); [`SubvectorHint::None`] leaves the GPU's configured mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SubvectorHint {
    /// No indication: the GPU's `cu.subvector_mode`.
    #[default]
    None = 0,
    /// Conventional order.
    Conventional = 1,
    /// Sub-vector looping.
    Subvector = 2,
    /// The mode control unit chooses from the L0 miss rate.
    Auto = 3,
}

impl SubvectorHint {
    /// The 2-bit field.
    pub fn from_bits(bits: u32) -> SubvectorHint {
        match bits & 3 {
            1 => SubvectorHint::Conventional,
            2 => SubvectorHint::Subvector,
            3 => SubvectorHint::Auto,
            _ => SubvectorHint::None,
        }
    }
}

impl DispatchPacket {
    /// The 16-dword memory image (HSA packet type KERNEL_DISPATCH = 2 in the header).
    pub fn to_dwords(&self) -> [u32; 16] {
        let mut d = [0u32; 16];
        d[0] = 2 | (u32::from(self.dimensions) << 16);
        d[1] = u32::from(self.workgroup_size[0]) | (u32::from(self.workgroup_size[1]) << 16);
        d[2] = u32::from(self.workgroup_size[2])
            | (self.subvector_hint as u32) << 16
            | u32::from(self.shared_vgprs) << 24;
        d[3..6].copy_from_slice(&self.grid_size);
        d[6] = self.private_segment_size;
        d[7] = self.group_segment_size;
        for (i, v) in [
            self.kernel_object,
            self.kernarg_address,
            self.scratch_address,
            self.completion_signal,
        ]
        .into_iter()
        .enumerate()
        {
            d[8 + 2 * i] = v as u32;
            d[9 + 2 * i] = (v >> 32) as u32;
        }
        d
    }

    /// Reads the memory image back, validating sizes.
    pub fn from_dwords(d: &[u32; 16]) -> Result<DispatchPacket, CommandError> {
        let q = |i: usize| u64::from(d[i]) | (u64::from(d[i + 1]) << 32);
        let p = DispatchPacket {
            dimensions: (d[0] >> 16) as u16,
            workgroup_size: [d[1] as u16, (d[1] >> 16) as u16, d[2] as u16],
            grid_size: [d[3], d[4], d[5]],
            private_segment_size: d[6],
            group_segment_size: d[7],
            kernel_object: q(8),
            kernarg_address: q(10),
            scratch_address: q(12),
            completion_signal: q(14),
            subvector_hint: SubvectorHint::from_bits(d[2] >> 16),
            shared_vgprs: (d[2] >> 24) as u8,
        };
        if !(1..=3).contains(&p.dimensions) {
            return Err(CommandError::BadDispatch(format!(
                "dimensions {} not in 1..=3",
                p.dimensions
            )));
        }
        if p.workgroup_size.contains(&0) || p.grid_size.contains(&0) {
            return Err(CommandError::BadDispatch(format!(
                "zero size: workgroup {:?}, grid {:?}",
                p.workgroup_size, p.grid_size
            )));
        }
        if p.kernel_object % 64 != 0 {
            return Err(CommandError::BadDispatch(format!(
                "kernel descriptor address {:#x} is not 64-byte aligned",
                p.kernel_object
            )));
        }
        Ok(p)
    }
}

/// How a semaphore acquire compares the memory word with its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemaphoreCompare {
    /// Proceed when `word == payload`.
    Equal = 0,
    /// Proceed when `word >= payload` (unsigned): epochs that only grow.
    GreaterOrEqual = 1,
}

impl SemaphoreCompare {
    /// Whether an acquire of `payload` proceeds on the memory word `word`.
    pub fn holds(self, word: u32, payload: u32) -> bool {
        match self {
            SemaphoreCompare::Equal => word == payload,
            SemaphoreCompare::GreaterOrEqual => word >= payload,
        }
    }
}

/// One decoded command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Skip `payload_dwords`.
    Nop {
        /// Dwords skipped.
        payload_dwords: u16,
    },
    /// Launch a kernel.
    Dispatch(DispatchPacket),
    /// Wait until the GPU is idle.
    WaitForIdle,
    /// Block until the word at `address` satisfies `compare` against `payload`.
    SemaphoreAcquire {
        /// 4-aligned device address.
        address: u64,
        /// The value compared against.
        payload: u32,
        /// The comparison.
        compare: SemaphoreCompare,
    },
    /// Write `payload` to `address`.
    SemaphoreRelease {
        /// 4-aligned device address.
        address: u64,
        /// The value written.
        payload: u32,
    },
}

impl Command {
    /// Appends the command (header and payload) to a block being built.
    pub fn write(&self, block: &mut Vec<u32>) {
        let header = |opcode: CommandOpcode, payload_dwords: u16| {
            CommandHeader {
                opcode,
                payload_dwords,
            }
            .to_bits()
        };
        match *self {
            Command::Nop { payload_dwords } => {
                block.push(header(CommandOpcode::Nop, payload_dwords));
                block.extend(std::iter::repeat(0).take(usize::from(payload_dwords)));
            }
            Command::Dispatch(p) => {
                block.push(header(CommandOpcode::Dispatch, DISPATCH_PACKET_DWORDS));
                block.extend(p.to_dwords());
            }
            Command::WaitForIdle => block.push(header(CommandOpcode::WaitForIdle, 0)),
            Command::SemaphoreAcquire {
                address,
                payload,
                compare,
            } => {
                block.push(header(CommandOpcode::SemaphoreAcquire, 4));
                block.extend([
                    address as u32,
                    (address >> 32) as u32,
                    payload,
                    compare as u32,
                ]);
            }
            Command::SemaphoreRelease { address, payload } => {
                block.push(header(CommandOpcode::SemaphoreRelease, 3));
                block.extend([address as u32, (address >> 32) as u32, payload]);
            }
        }
    }

    /// Decodes the command at the start of `dwords`, returning it and the dwords it used.
    pub fn read(dwords: &[u32]) -> Result<(Command, usize), CommandError> {
        let first = *dwords
            .first()
            .ok_or(CommandError::Truncated { need: 1, have: 0 })?;
        let header = CommandHeader::from_bits(first)?;
        let len = 1 + usize::from(header.payload_dwords);
        let body = dwords.get(1..len).ok_or(CommandError::Truncated {
            need: len,
            have: dwords.len(),
        })?;
        let addr = |i: usize| -> Result<u64, CommandError> {
            let a = u64::from(body[i]) | (u64::from(body[i + 1]) << 32);
            if a % 4 != 0 {
                return Err(CommandError::BadSemaphoreAddress(a));
            }
            Ok(a)
        };
        let command = match header.opcode {
            CommandOpcode::Nop => Command::Nop {
                payload_dwords: header.payload_dwords,
            },
            CommandOpcode::Dispatch => {
                let mut packet = [0u32; 16];
                packet.copy_from_slice(body);
                Command::Dispatch(DispatchPacket::from_dwords(&packet)?)
            }
            CommandOpcode::WaitForIdle => Command::WaitForIdle,
            CommandOpcode::SemaphoreAcquire => Command::SemaphoreAcquire {
                address: addr(0)?,
                payload: body[2],
                compare: match body[3] {
                    0 => SemaphoreCompare::Equal,
                    1 => SemaphoreCompare::GreaterOrEqual,
                    other => return Err(CommandError::BadCompare(other)),
                },
            },
            CommandOpcode::SemaphoreRelease => Command::SemaphoreRelease {
                address: addr(0)?,
                payload: body[2],
            },
        };
        Ok((command, len))
    }
}

/// A malformed entry or command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The entry's block address is unaligned or wider than 48 bits.
    #[error("command block address {0:#x} is not 4-byte aligned or exceeds 48 bits")]
    BadBlockAddress(u64),
    /// The entry has length zero.
    #[error("channel entry points to an empty command block")]
    EmptyBlock,
    /// Header bits \[7:0\] name no command.
    #[error("unknown command opcode {0:#04x}")]
    UnknownOpcode(u8),
    /// Header bits \[15:8\] are not zero.
    #[error("command header {0:#010x} has reserved bits set")]
    ReservedBits(u32),
    /// The header's payload length is wrong for the command.
    #[error("{opcode:?} takes {want} payload dwords, header says {got}")]
    PayloadLength {
        /// The command.
        opcode: CommandOpcode,
        /// Required.
        want: u16,
        /// Found.
        got: u16,
    },
    /// The block ends inside a command.
    #[error("command block ends inside a command: needs {need} dwords, {have} left")]
    Truncated {
        /// Dwords needed.
        need: usize,
        /// Dwords left.
        have: usize,
    },
    /// Semaphore address not 4-byte aligned.
    #[error("semaphore address {0:#x} is not 4-byte aligned")]
    BadSemaphoreAddress(u64),
    /// Unknown semaphore compare code.
    #[error("unknown semaphore compare {0}")]
    BadCompare(u32),
    /// A dispatch packet field is invalid.
    #[error("bad dispatch: {0}")]
    BadDispatch(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_bits_round_trip_and_reject_bad_blocks() {
        let e = ChannelEntry::new(0x1234_5678_9abc, 17).unwrap();
        assert_eq!(e.to_bits(), 0x0011_1234_5678_9abc);
        assert_eq!(ChannelEntry::from_bits(e.to_bits()).unwrap(), e);
        assert_eq!(
            ChannelEntry::new(0x1002, 1),
            Err(CommandError::BadBlockAddress(0x1002))
        );
        assert_eq!(
            ChannelEntry::new(1 << 48, 1),
            Err(CommandError::BadBlockAddress(1 << 48))
        );
        assert_eq!(
            ChannelEntry::from_bits(0x1000),
            Err(CommandError::EmptyBlock)
        );
    }

    #[test]
    fn commands_round_trip() {
        let packet = DispatchPacket {
            dimensions: 2,
            workgroup_size: [64, 2, 1],
            grid_size: [1024, 8, 1],
            private_segment_size: 0,
            group_segment_size: 256,
            kernel_object: 0x10_0040,
            kernarg_address: 0x20_0000,
            scratch_address: 0x30_0000,
            completion_signal: 0,
            subvector_hint: SubvectorHint::Auto,
            shared_vgprs: 48,
        };
        let commands = [
            Command::Nop { payload_dwords: 2 },
            Command::Dispatch(packet),
            Command::WaitForIdle,
            Command::SemaphoreAcquire {
                address: 0x8000,
                payload: 3,
                compare: SemaphoreCompare::GreaterOrEqual,
            },
            Command::SemaphoreRelease {
                address: 0x8004,
                payload: 9,
            },
        ];
        let mut block = Vec::new();
        for c in &commands {
            c.write(&mut block);
        }
        assert_eq!(block.len(), 3 + 17 + 1 + 5 + 4);
        let mut at = 0;
        for c in &commands {
            let (got, used) = Command::read(&block[at..]).unwrap();
            assert_eq!(&got, c);
            at += used;
        }
        assert_eq!(at, block.len());
        // The packet keeps HSA's layout: workgroup_size_x at byte 4, kernel_object at byte 32.
        let d = packet.to_dwords();
        assert_eq!(d[1] & 0xffff, 64);
        assert_eq!(d[8], 0x10_0040);
    }

    #[test]
    fn malformed_commands_are_errors() {
        assert_eq!(
            Command::read(&[0x0000_0077]),
            Err(CommandError::UnknownOpcode(0x77))
        );
        assert_eq!(
            Command::read(&[0x0000_0102]),
            Err(CommandError::ReservedBits(0x102))
        );
        assert!(matches!(
            Command::read(&[0x0005_0002]),
            Err(CommandError::PayloadLength { .. })
        ));
        assert_eq!(
            Command::read(&[0x0003_0004, 0]),
            Err(CommandError::Truncated { need: 4, have: 2 })
        );
        assert_eq!(
            Command::read(&[0x0003_0004, 2, 0, 1]),
            Err(CommandError::BadSemaphoreAddress(2))
        );
        assert_eq!(
            Command::read(&[0x0004_0003, 0, 0, 1, 7]),
            Err(CommandError::BadCompare(7))
        );
        assert_eq!(
            Command::read(&[]),
            Err(CommandError::Truncated { need: 1, have: 0 })
        );
    }
}
