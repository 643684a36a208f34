//! A hasher for keys that are addresses (instruction pcs, memory dwords):
//! already spread over their range, so a multiply mixes them enough and
//! costs far less than the standard SipHash on the hot paths that use it.

use std::hash::Hasher;

/// Identity-style hasher for address keys (distinct, often aligned).
#[derive(Default)]
pub struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = self.0.rotate_left(5) ^ v;
    }
    fn write_u8(&mut self, v: u8) {
        self.0 = self.0.rotate_left(5) ^ u64::from(v);
    }
}
