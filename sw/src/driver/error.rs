//! Driver errors. Each names what is wrong in terms a user can act on; GPU
//! faults and blocked channels keep the device's own message.

use arch::code_object::CodeObjectError;
use arch::command::CommandError;
use arch::device::{BlockedChannel, DeviceError};
use arch::isa::Isa;
use thiserror::Error;

/// Why a driver operation failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DriverError {
    /// A device call failed; a GPU fault keeps the device's report verbatim.
    #[error("{0}")]
    Device(#[from] DeviceError),
    /// The code object could not be read.
    #[error("code object: {0}")]
    CodeObject(#[from] CodeObjectError),
    /// The code object's program headers are malformed.
    #[error("code object: bad program header at byte {offset:#x}: {reason}")]
    BadSegment {
        /// Byte offset of the program header (or of the field) in the file.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The code object was built for another processor.
    #[error("code object is for {code_object}, but the device is {device}")]
    WrongProcessor {
        /// The code object's processor.
        code_object: String,
        /// The device's ISA.
        device: Isa,
    },
    /// A gfx803 kernel could not be translated for the gfx1030 device.
    #[error("translating kernel `{kernel}` from gfx803 to gfx1030: {error}")]
    Translate {
        /// Kernel name.
        kernel: String,
        /// What the translator refused.
        error: crate::xlate::XlateError,
    },
    /// The device's GPU_ID register disagrees with `Device::isa()`.
    #[error("device reports GPU_ID {gpu_id:#x} but claims to execute {isa}")]
    GpuId {
        /// The register value.
        gpu_id: u32,
        /// What `Device::isa()` said.
        isa: Isa,
    },
    /// The heap range is not page-aligned, empty or beyond 48 bits.
    #[error(
        "bad device heap [{base:#x}, +{size:#x}): must be non-empty, 4 KiB-aligned and below 2^48"
    )]
    BadHeap {
        /// Start.
        base: u64,
        /// Size.
        size: u64,
    },
    /// An alignment that is not a power of two.
    #[error("alignment {0} is not a power of two")]
    BadAlignment(u64),
    /// No free span is large enough.
    #[error("out of device memory: cannot allocate {size} bytes aligned to {align} ({free} bytes of address space free, maybe fragmented)")]
    OutOfMemory {
        /// Bytes requested.
        size: u64,
        /// Alignment requested.
        align: u64,
        /// Free address space.
        free: u64,
    },
    /// `free` of an address that is not the start of a live allocation.
    #[error("no allocation starts at device address {0:#x}")]
    UnknownAllocation(u64),
    /// An upload or download outside a buffer.
    #[error("access [{offset:#x}, +{len:#x}) is outside the {size}-byte buffer at {address:#x}")]
    OutOfBounds {
        /// The buffer's address.
        address: u64,
        /// The buffer's size.
        size: u64,
        /// Offset of the access.
        offset: u64,
        /// Length of the access.
        len: u64,
    },
    /// The code object has no kernel of that name.
    #[error("no kernel `{name}` in the code object (it has: {available})")]
    NoKernel {
        /// The name asked for.
        name: String,
        /// Comma-separated kernel names.
        available: String,
    },
    /// Wrong number of explicit arguments.
    #[error("kernel `{kernel}` takes {expected} arguments, {got} given")]
    ArgCount {
        /// Kernel name.
        kernel: String,
        /// Explicit arguments in the metadata.
        expected: usize,
        /// Arguments passed.
        got: usize,
    },
    /// An argument of the wrong kind or size for its parameter.
    #[error("kernel `{kernel}` argument {index} (`{name}`): {reason}")]
    BadArg {
        /// Kernel name.
        kernel: String,
        /// Argument index (explicit arguments only).
        index: usize,
        /// Parameter name from the metadata (`?` if absent).
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The launch geometry or resources are invalid.
    #[error("cannot launch `{kernel}`: {reason}")]
    BadLaunch {
        /// Kernel name.
        kernel: String,
        /// What is wrong.
        reason: String,
    },
    /// A command could not be encoded (e.g. a block address beyond 48 bits).
    #[error("command: {0}")]
    Command(#[from] CommandError),
    /// The channel index is beyond the device's channel count.
    #[error("channel {channel} does not exist (the device has {count})")]
    NoChannel {
        /// Channel asked for.
        channel: u32,
        /// CHANNEL_COUNT.
        count: u32,
    },
    /// A bad channel ring size.
    #[error("channel ring of {0} entries: needs 2..=65536 entries")]
    BadRingSize(u32),
    /// The device can make no progress before the fence is reached.
    #[error("fence {fence} ([{address:#x}] >= {fence}) can never be reached: {}", blocked_text(.channels))]
    Blocked {
        /// The fence value waited for.
        fence: u32,
        /// The fence word's address.
        address: u64,
        /// The channels stuck on semaphores (empty: the device went idle).
        channels: Vec<BlockedChannel>,
    },
    /// The device's run budget ran out before the fence was reached.
    #[error(
        "fence {fence} ([{address:#x}] >= {fence}) not reached: the device's cycle budget ran out"
    )]
    Timeout {
        /// The fence value waited for.
        fence: u32,
        /// The fence word's address.
        address: u64,
    },
    /// The channel ring stayed full: the front end did not consume entries.
    #[error("channel {channel} ring stayed full (GP_GET {gp_get}, GP_PUT {gp_put}, {entries} entries) after {cycles} cycles")]
    RingStuck {
        /// Channel index.
        channel: u32,
        /// Last GP_GET read.
        gp_get: u32,
        /// Our GP_PUT.
        gp_put: u32,
        /// Ring size Q.
        entries: u32,
        /// Cycles run while waiting.
        cycles: u64,
    },
    /// GP_GET read back outside the ring.
    #[error("channel {channel} GP_GET {gp_get} is outside its ring of {entries} entries")]
    BadGpGet {
        /// Channel index.
        channel: u32,
        /// The value read.
        gp_get: u32,
        /// Ring size.
        entries: u32,
    },
    /// 2^32 - 1 submissions: the fence payload would wrap.
    #[error("fence counter exhausted (2^32 - 1 submissions); create a new driver")]
    FenceExhausted,
    /// A fence value that was never handed out.
    #[error("fence {fence} was never submitted (last submitted: {last})")]
    UnknownFence {
        /// The fence asked for.
        fence: u32,
        /// The last fence submitted.
        last: u32,
    },
    /// A printf buffer size out of range.
    #[error("printf buffer of {0} bytes: give 16 bytes to 1 GiB")]
    BadPrintfBuffer(u32),
    /// A printing kernel's `amdhsa.printf` metadata is malformed.
    #[error(
        "kernel `{kernel}` prints, but its code object's printf formats are unusable: {reason}"
    )]
    BadPrintf {
        /// Kernel name.
        kernel: String,
        /// What is wrong.
        reason: String,
    },
}

fn blocked_text(channels: &[BlockedChannel]) -> String {
    if channels.is_empty() {
        return "the device is idle with nothing left to run".to_string();
    }
    channels
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
