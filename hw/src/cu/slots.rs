//! A row of register slots (the CU's wave and workgroup slots) with a change
//! generation per slot, so that tracing can step over the slots nothing wrote.

use std::ops::{Deref, Index, IndexMut, Range};

/// Slots of `T` with a change generation per slot.
///
/// Every way of getting a `&mut T` (indexing, [`Slots::get_mut`],
/// [`Slots::iter_mut`]) bumps the slot's generation, so a write cannot miss
/// it; reading goes through `Deref` to `[T]` and bumps nothing. A tracer
/// ([`traces::Tracer::slots_hinted`]) then steps over a slot whose generation
/// is the one it saw at its previous sample instead of reading and comparing
/// its registers: most live waves are not written in a given cycle. Code that
/// only reads a slot should index it through a shared reference, or the
/// tracer compares the slot for nothing.
#[derive(Clone, Debug, Default)]
pub struct Slots<T> {
    slots: Vec<T>,
    /// By slot: how many times it was handed out for writing (wrapping; a
    /// tracer only compares it for equality with an earlier value).
    gens: Vec<u64>,
}

impl<T: Clone + Default> Slots<T> {
    /// `n` slots holding `T::default()`.
    pub fn new(n: usize) -> Slots<T> {
        Slots {
            slots: vec![T::default(); n],
            gens: vec![0; n],
        }
    }
}

impl<T> Slots<T> {
    /// Each slot's change generation.
    #[inline]
    pub fn gens(&self) -> &[u64] {
        &self.gens
    }

    /// Slot `i` for writing (bumps its generation), or `None` out of range.
    #[inline]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        let w = self.slots.get_mut(i)?;
        if let Some(g) = self.gens.get_mut(i) {
            *g = g.wrapping_add(1);
        }
        Some(w)
    }

    /// Every slot for writing (bumps every generation).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        for g in &mut self.gens {
            *g = g.wrapping_add(1);
        }
        self.slots.iter_mut()
    }
}

impl<T> Deref for Slots<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.slots
    }
}

impl<T> Index<usize> for Slots<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.slots[i]
    }
}

/// A row of slots for reading (there is no `IndexMut` for ranges: writes go
/// through single slots).
impl<T> Index<Range<usize>> for Slots<T> {
    type Output = [T];
    #[inline]
    fn index(&self, r: Range<usize>) -> &[T] {
        &self.slots[r]
    }
}

impl<T> IndexMut<usize> for Slots<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        let w = &mut self.slots[i];
        if let Some(g) = self.gens.get_mut(i) {
            *g = g.wrapping_add(1);
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;

    #[test]
    fn every_write_access_bumps_only_its_slot() {
        let mut s: Slots<u32> = Slots::new(3);
        let _ = s[1] + s[0..2].len() as u32 + s.iter().sum::<u32>();
        assert_eq!(s.gens(), [0, 0, 0], "reads bump nothing");
        s[1] = 5;
        *s.get_mut(2).unwrap() += 1;
        assert!(s.get_mut(3).is_none());
        assert_eq!(s.gens(), [0, 1, 1]);
        s.iter_mut().for_each(|v| *v += 1);
        assert_eq!(s.gens(), [1, 2, 2]);
        assert_eq!(s.to_vec(), [1, 6, 2]);
    }
}
