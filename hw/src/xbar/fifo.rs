//! Credit-based FIFO between two stages. The sender holds `credits` (free slots
//! in the receiver, counting packets still on the wire), sends only with a
//! credit, and gets the credit back at the clock edge after the receiver pops.
//! An entry pushed with `ready_at` is invisible to the receiver before that
//! cycle: this is how link/pipeline latency is modelled without a shift
//! register per stage.

use std::collections::VecDeque;

/// A FIFO plus the sender's credit counter.
#[derive(Clone, Debug)]
pub struct CreditFifo<T> {
    /// Sender-side register: free slots the sender may still fill.
    credits: u16,
    /// Pops this cycle, returned to `credits` at the clock edge.
    returned: u16,
    capacity: u16,
    queue: VecDeque<(u64, T)>,
}

impl<T> CreditFifo<T> {
    /// An empty FIFO of `capacity` slots (at least one).
    pub fn new(capacity: u16) -> CreditFifo<T> {
        let capacity = capacity.max(1);
        CreditFifo {
            credits: capacity,
            returned: 0,
            capacity,
            queue: VecDeque::with_capacity(usize::from(capacity)),
        }
    }

    /// The sender holds a credit this cycle.
    #[inline]
    pub fn can_push(&self) -> bool {
        self.credits > 0
    }

    /// Sends `item`, visible to the receiver from cycle `ready_at`; spends one
    /// credit. Returns the item back when no credit is held (nothing is lost).
    #[inline]
    pub fn push(&mut self, item: T, ready_at: u64) -> Result<(), T> {
        if self.credits == 0 {
            return Err(item);
        }
        self.credits -= 1;
        self.queue.push_back((ready_at, item));
        Ok(())
    }

    /// The head entry if it has arrived by cycle `now`.
    #[inline]
    pub fn front(&self, now: u64) -> Option<&T> {
        match self.queue.front() {
            Some((ready, item)) if *ready <= now => Some(item),
            _ => None,
        }
    }

    /// Removes the head if it has arrived by `now`; its credit returns at the edge.
    #[inline]
    pub fn pop(&mut self, now: u64) -> Option<T> {
        match self.queue.front() {
            Some((ready, _)) if *ready <= now => {
                self.returned += 1;
                self.queue.pop_front().map(|(_, item)| item)
            }
            _ => None,
        }
    }

    /// The clock edge: popped slots become credits again.
    #[inline]
    pub fn commit(&mut self) {
        // Written only when something was popped: the receiver side of a
        // CU's FIFO may sit in another core's cache (crate::parallel).
        if self.returned != 0 {
            self.credits += self.returned;
            self.returned = 0;
        }
    }

    /// The cycle the head entry becomes (or became) visible to the
    /// receiver, if there is one (event skipping: nothing in this FIFO can
    /// move before it).
    #[inline]
    pub fn head_ready(&self) -> Option<u64> {
        self.queue.front().map(|&(ready, _)| ready)
    }

    /// Entries held (arrived or still on the wire).
    #[inline]
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// No entry held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Credits the sender holds now.
    pub fn credits(&self) -> u16 {
        self.credits
    }

    /// Slots in the receiver.
    pub fn capacity(&self) -> u16 {
        self.capacity
    }
}

impl<T> traces::Probe for CreditFifo<T> {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        if t.flat_scope(Self::FLAT, Self::SCOPES, |out| self.flat(out)) {
            return;
        }
        t.scope(name, |t| {
            t.signal("credits", 16, u64::from(self.credits));
            t.signal("count", 16, self.queue.len() as u64);
        });
    }
    const FLAT: usize = 2;
    const SCOPES: usize = 1;
    #[inline]
    fn flat(&self, out: &mut [u64]) {
        // As `signal` would mask them to their 16 bits.
        out[0] = u64::from(self.credits);
        out[1] = self.queue.len() as u64 & 0xffff;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_receiver_stops_sender_and_pop_returns_credit_at_edge() {
        let mut f = CreditFifo::new(2);
        assert!(f.push(1, 0).is_ok());
        assert!(f.push(2, 0).is_ok());
        assert!(!f.can_push());
        assert_eq!(f.push(3, 0), Err(3));
        assert_eq!(f.pop(0), Some(1));
        // Credit comes back only at the clock edge.
        assert!(!f.can_push());
        f.commit();
        assert!(f.can_push());
        assert!(f.push(3, 0).is_ok());
        assert_eq!(f.pop(0), Some(2));
        assert_eq!(f.pop(0), Some(3));
        assert_eq!(f.pop(0), None);
    }

    #[test]
    fn entries_are_invisible_before_ready_cycle() {
        let mut f = CreditFifo::new(4);
        f.push(7u8, 5).unwrap();
        assert_eq!(f.front(4), None);
        assert_eq!(f.pop(4), None);
        assert_eq!(f.front(5), Some(&7));
    }
}
