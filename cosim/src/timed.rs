//! A device wrapper that measures the host time a model spends simulating
//! (inside [`Device::run`]), leaving out the driver's own work: what the
//! benchmarks time.

use std::time::{Duration, Instant};

use arch::device::{Device, DeviceError, RunStatus, RunUntil};
use arch::isa::Isa;

/// A device that adds up the host time spent in [`Device::run`] and forwards
/// everything to the model it wraps.
pub struct Timed<D> {
    /// The model.
    pub inner: D,
    /// Host time spent in `run` so far.
    pub in_run: Duration,
}

impl<D> Timed<D> {
    /// Wraps `inner`, no time counted yet.
    pub fn new(inner: D) -> Timed<D> {
        Timed {
            inner,
            in_run: Duration::ZERO,
        }
    }
}

impl<D: Device> Device for Timed<D> {
    fn isa(&self) -> Isa {
        self.inner.isa()
    }
    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.inner.map(base, size)
    }
    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        self.inner.unmap(base)
    }
    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.inner.read(address, out)
    }
    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        self.inner.write(address, data)
    }
    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        self.inner.mmio_read(offset)
    }
    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        self.inner.mmio_write(offset, value)
    }
    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        let start = Instant::now();
        let status = self.inner.run(until);
        self.in_run += start.elapsed();
        status
    }
    fn now(&self) -> u64 {
        self.inner.now()
    }
}
