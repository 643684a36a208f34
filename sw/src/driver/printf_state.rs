//! The driver's side of `printf` ([`super::printf`] describes the buffer):
//! which loaded kernels print, a buffer per dispatch of one, and decoding it
//! once the dispatch's fence is reached.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use arch::code_object::{CodeObject, Kernel, ValueKind};
use arch::device::Device;

use super::loader::LoadedKernel;
use super::memory::Allocation;
use super::printf::{self, PrintfFormat, PrintfOutput, DEFAULT_PRINTF_BUFFER, HEADER_BYTES};
use super::{Driver, DriverError};

/// The formats of a printing kernel's code object.
#[derive(Debug)]
pub(super) struct Formats {
    /// Parsed `amdhsa.printf` entries, or why they could not be parsed (an
    /// error only when the kernel is dispatched).
    formats: Result<Vec<PrintfFormat>, String>,
    /// Records end with gpusim's work-item tag.
    tagged: bool,
}

/// A dispatch's printf buffer, waiting for its fence.
#[derive(Debug)]
pub(super) struct Pending {
    pub allocation: Allocation,
    /// The size written in the header.
    size: u32,
    kernel: String,
    formats: Arc<Formats>,
}

/// Per-driver printf state.
#[derive(Debug)]
pub(super) struct PrintfState {
    /// Formats of the kernels that have a `hidden_printf_buffer` argument,
    /// by kernel object.
    kernels: HashMap<u64, Arc<Formats>>,
    /// Buffers of dispatches in flight, by fence value.
    pub pending: VecDeque<(u32, Pending)>,
    /// Decoded output not yet taken.
    output: Vec<PrintfOutput>,
    /// Buffer size per dispatch, header included.
    buffer_bytes: u32,
}

impl Default for PrintfState {
    fn default() -> Self {
        PrintfState {
            kernels: HashMap::new(),
            pending: VecDeque::new(),
            output: Vec::new(),
            buffer_bytes: DEFAULT_PRINTF_BUFFER,
        }
    }
}

impl Formats {
    /// The formats of `co`, parsed once for all its kernels; `None` when it
    /// has no `amdhsa.printf` entries.
    pub fn of(co: &CodeObject) -> Option<Arc<Formats>> {
        let entries = &co.metadata().printf;
        if entries.is_empty() {
            return None;
        }
        let formats = entries
            .iter()
            .map(|e| PrintfFormat::parse(e))
            .collect::<Result<Vec<_>, _>>();
        let tagged = co
            .gpusim_notes()
            .iter()
            .any(|n| n.n_type == printf::NT_GPUSIM_PRINTF);
        Some(Arc::new(Formats { formats, tagged }))
    }
}

impl PrintfState {
    /// Remembers the formats of `k` if it prints: it has a
    /// `hidden_printf_buffer` argument and its object has `amdhsa.printf`
    /// (`formats`, from [`Formats::of`]).
    pub fn register(&mut self, kernel_object: u64, k: &Kernel, formats: Option<&Arc<Formats>>) {
        let prints = k
            .metadata
            .args
            .iter()
            .any(|a| a.value_kind == ValueKind::HiddenPrintfBuffer);
        // The argument alone is not enough: kernels of an object without
        // formats cannot print anything decodable, and get 0 as before.
        if let Some(formats) = formats.filter(|_| prints) {
            self.kernels.insert(kernel_object, Arc::clone(formats));
        }
    }

    /// Forgets an unloaded kernel.
    pub fn forget(&mut self, kernel_object: u64) {
        self.kernels.remove(&kernel_object);
    }
}

impl<D: Device> Driver<D> {
    /// Sets the printf buffer size of later dispatches (bytes, header
    /// included; at least 16, at most 1 GiB).
    pub fn set_printf_buffer(&mut self, bytes: u32) -> Result<(), DriverError> {
        if !(16..=1 << 30).contains(&bytes) {
            return Err(DriverError::BadPrintfBuffer(bytes));
        }
        self.printf.buffer_bytes = bytes.next_multiple_of(4);
        Ok(())
    }

    /// The printf buffer size of later dispatches.
    pub fn printf_buffer(&self) -> u32 {
        self.printf.buffer_bytes
    }

    /// What finished dispatches printed since the last call, in dispatch
    /// completion order.
    pub fn take_printf(&mut self) -> Vec<PrintfOutput> {
        std::mem::take(&mut self.printf.output)
    }

    /// A fresh buffer for a dispatch of `kernel` if it prints: header
    /// `[0, size]` and a zero lost-record counter after it.
    pub(super) fn printf_buffer_for(
        &mut self,
        kernel: &LoadedKernel,
    ) -> Result<Option<Pending>, DriverError> {
        let Some(formats) = self.printf.kernels.get(&kernel.kernel_object).cloned() else {
            return Ok(None);
        };
        if let Err(reason) = &formats.formats {
            return Err(DriverError::BadPrintf {
                kernel: kernel.name().to_string(),
                reason: reason.clone(),
            });
        }
        let size = self.printf.buffer_bytes;
        let allocation = self.alloc(u64::from(size) + 4, 8)?;
        // All zero but the size word: a record that gpusim's code reserved
        // but could not write reads as ID 0, never as a stale record of an
        // earlier dispatch.
        let mut init = vec![0u8; size as usize + 4];
        init[4..8].copy_from_slice(&size.to_le_bytes());
        let written = self.device.write(allocation.address, &init);
        if let Err(e) = written {
            self.free(allocation)?;
            return Err(e.into());
        }
        Ok(Some(Pending {
            allocation,
            size,
            kernel: kernel.name().to_string(),
            formats,
        }))
    }

    /// Decodes the buffers of every dispatch whose fence has been reached and
    /// frees them.
    pub(super) fn collect_printf(&mut self) -> Result<(), DriverError> {
        while let Some((f, _)) = self.printf.pending.front() {
            if *f > self.completed {
                break;
            }
            let Some((_, p)) = self.printf.pending.pop_front() else {
                break;
            };
            let out = self.decode_printf(&p);
            self.free(p.allocation)?;
            self.printf.output.push(out?);
        }
        Ok(())
    }

    fn decode_printf(&mut self, p: &Pending) -> Result<PrintfOutput, DriverError> {
        let mut header = [0u8; 8];
        self.device.read(p.allocation.address, &mut header)?;
        let used = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        let mut bytes = vec![0u8; p.size as usize + 4];
        bytes[..4].copy_from_slice(&header[..4]);
        bytes[4..8].copy_from_slice(&p.size.to_le_bytes());
        // Only the used bytes and the lost-record counter: buffers are large
        // and mostly empty.
        let end = (HEADER_BYTES as usize + used as usize).min(p.size as usize);
        self.device
            .read(p.allocation.address + 8, &mut bytes[8..end.max(8)])?;
        let at = p.size as usize;
        self.device
            .read(p.allocation.address + at as u64, &mut bytes[at..at + 4])?;
        let formats = p.formats.formats.as_deref().unwrap_or(&[]);
        let mut out = printf::decode(&p.kernel, &bytes, formats, p.formats.tagged);
        if size != p.size {
            out.errors.push(format!(
                "the kernel overwrote the printf buffer's size word ({size}, was {})",
                p.size
            ));
        }
        Ok(out)
    }
}
