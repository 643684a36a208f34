//! Crossbar packets: bit-defined fields, as they would travel on the wires.

use arbitrary_int::{u10, u3, u5, u58};

/// What a packet is (the 3-bit `kind` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Read request; `flits` is the size of the data the response will carry.
    Read = 0,
    /// Write request carrying `flits` flits of data (the header rides in the first).
    Write = 1,
    /// Atomic whose pre-op value is not wanted (one flit: the operands fit).
    Atomic = 2,
    /// Atomic returning the pre-op value.
    AtomicRet = 3,
    /// Read response carrying `flits` flits of data.
    ReadData = 4,
    /// Write completion (one flit).
    WriteAck = 5,
    /// Atomic completion (one flit; carries the pre-op value when asked).
    AtomicAck = 6,
}

impl Kind {
    /// The field's encoding.
    pub fn bits(self) -> u3 {
        u3::new(self as u8)
    }

    /// Decodes the field (7 is unused and decodes to `None`).
    pub fn from_bits(b: u3) -> Option<Kind> {
        Some(match b.value() {
            0 => Kind::Read,
            1 => Kind::Write,
            2 => Kind::Atomic,
            3 => Kind::AtomicRet,
            4 => Kind::ReadData,
            5 => Kind::WriteAck,
            6 => Kind::AtomicAck,
            _ => return None,
        })
    }

    /// True for the atomic request kinds.
    pub fn is_atomic(self) -> bool {
        matches!(self, Kind::Atomic | Kind::AtomicRet)
    }
}

/// Widest requester-port index a packet can name (10 bits).
pub const MAX_PORTS: usize = 1 << 10;
/// Largest packet, in flits (5 bits).
pub const MAX_FLITS: u32 = (1 << 5) - 1;

traces::signals! {
    /// One crossbar packet. On the request network `port` is the source, on
    /// the response network the destination; `tag` is the requester's handle
    /// (an MSHR index for CU caches, the request tag for the front end).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Packet {
        /// [`Kind`] encoding.
        pub kind: u3,
        /// Requester port.
        pub port: u10,
        /// Requester's tag.
        pub tag: u16,
        /// Line address (byte address / line size), wrapping at 58 bits.
        pub line: u58,
        /// Size in flits (see [`Kind`] for what it counts).
        pub flits: u5,
    }
}

impl Packet {
    /// A packet; `line` and `flits` wrap to their field widths as wires do
    /// (callers keep `flits` in range: [`MAX_FLITS`] is validated in the config).
    pub fn new(kind: Kind, port: usize, tag: u16, line: u64, flits: u32) -> Packet {
        Packet {
            kind: kind.bits(),
            port: u10::extract_u64(port as u64, 0),
            tag,
            line: u58::extract_u64(line, 0),
            flits: u5::extract_u32(flits, 0),
        }
    }

    /// The decoded kind (`Read` for the unused encoding, which no block emits).
    pub fn kind(&self) -> Kind {
        Kind::from_bits(self.kind).unwrap_or(Kind::Read)
    }

    /// Flits this packet occupies on a link: reads and atomics are one header
    /// flit; data-carrying packets their `flits` (at least one).
    pub fn link_flits(&self) -> u32 {
        match self.kind() {
            Kind::Read | Kind::Atomic | Kind::AtomicRet | Kind::WriteAck | Kind::AtomicAck => 1,
            Kind::Write | Kind::ReadData => u32::from(self.flits.value()).max(1),
        }
    }

    /// The requester port index.
    pub fn port(&self) -> usize {
        usize::from(self.port.value())
    }

    /// The line address.
    pub fn line(&self) -> u64 {
        self.line.value()
    }
}
