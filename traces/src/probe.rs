//! How hardware state shows itself to a [`Tracer`]: every register and port
//! implements [`Probe`], and a block's state struct gets its implementation from
//! the [`signals!`](crate::signals) macro, so no block writes per-signal code.

use arbitrary_int::{Number, UInt};

use crate::Tracer;

/// A value that can be traced under a name: a leaf signal (a `bool`, an integer,
/// an `arbitrary-int` field) or a scope of signals (a register struct, a port).
///
/// A value whose walk has a fixed shape (every leaf of at most 64 bits, no
/// vector whose length the type does not fix) also says so in [`Probe::FLAT`]
/// and [`Probe::SCOPES`] and can write its values in walk order with
/// [`Probe::flat`]: a block declared with [`signals!`](crate::signals) then
/// samples as one run of words compared in bulk ([`Tracer::flat_scope`])
/// instead of signal by signal. The defaults describe a value without that
/// fast path.
pub trait Probe {
    /// Emits this value as signal(s) named `name` under the tracer's current scope.
    fn probe(&self, name: &str, t: &mut Tracer);

    /// Number of signals its walk emits when that is fixed by the type (all of
    /// them of at most 64 bits), else 0.
    const FLAT: usize = 0;

    /// Number of [`Tracer::scope`] calls its walk makes (meaningful when
    /// `FLAT` is not 0).
    const SCOPES: usize = 0;

    /// Writes the `FLAT` values its walk would emit, in walk order, each with
    /// the bits above its width clear. `out` holds exactly `FLAT` words.
    #[inline]
    fn flat(&self, out: &mut [u64]) {
        let _ = out;
    }
}

/// A leaf: a fixed-width bit vector of at most 64 bits.
pub trait Leaf {
    /// Width in bits, as the waveform shows it.
    const WIDTH: u32;
    /// The value's bits (zero-extended).
    fn bits(&self) -> u64;
}

macro_rules! leaf_int {
    ($($t:ty => $u:ty, $w:expr);* $(;)?) => {$(
        impl Leaf for $t {
            const WIDTH: u32 = $w;
            #[inline]
            fn bits(&self) -> u64 {
                // Through the unsigned type of the same width, so that a
                // negative value is not sign-extended past WIDTH.
                *self as $u as u64
            }
        }
        impl Probe for $t {
            #[inline]
            fn probe(&self, name: &str, t: &mut Tracer) {
                t.signal(name, <$t as Leaf>::WIDTH, self.bits());
            }
            const FLAT: usize = 1;
            #[inline(always)]
            fn flat(&self, out: &mut [u64]) {
                out[0] = self.bits();
            }
        }
    )*};
}
leaf_int!(
    u8 => u8, 8; u16 => u16, 16; u32 => u32, 32; u64 => u64, 64;
    i8 => u8, 8; i16 => u16, 16; i32 => u32, 32; i64 => u64, 64;
);

/// 128-bit values are wider than a [`Leaf`]; they go through [`Tracer::wide`].
impl Probe for u128 {
    #[inline]
    fn probe(&self, name: &str, t: &mut Tracer) {
        t.wide(name, 128, &[*self as u64, (*self >> 64) as u64]);
    }
}

/// As `u128`, two's complement.
impl Probe for i128 {
    #[inline]
    fn probe(&self, name: &str, t: &mut Tracer) {
        (*self as u128).probe(name, t);
    }
}

impl Leaf for bool {
    const WIDTH: u32 = 1;
    #[inline]
    fn bits(&self) -> u64 {
        u64::from(*self)
    }
}

impl Probe for bool {
    #[inline]
    fn probe(&self, name: &str, t: &mut Tracer) {
        t.signal(name, 1, self.bits());
    }
    const FLAT: usize = 1;
    #[inline(always)]
    fn flat(&self, out: &mut [u64]) {
        out[0] = self.bits();
    }
}

impl<T, const BITS: usize> Leaf for UInt<T, BITS>
where
    T: Copy + Into<u64>,
    UInt<T, BITS>: Number<UnderlyingType = T>,
{
    const WIDTH: u32 = BITS as u32;
    #[inline]
    fn bits(&self) -> u64 {
        self.value().into()
    }
}

impl<T, const BITS: usize> Probe for UInt<T, BITS>
where
    T: Copy + Into<u64>,
    UInt<T, BITS>: Number<UnderlyingType = T>,
{
    #[inline]
    fn probe(&self, name: &str, t: &mut Tracer) {
        t.signal(name, BITS as u32, self.bits());
    }
    // The underlying type converts into u64, so BITS <= 64; a value never has
    // bits above BITS.
    const FLAT: usize = 1;
    #[inline(always)]
    fn flat(&self, out: &mut [u64]) {
        out[0] = self.bits();
    }
}

/// Samples a row of fixed-shape blocks (each its own scope) as one block
/// ([`Tracer::flat_run`]); false if the row must be walked element by element.
#[inline]
fn flat_run<T: Probe>(items: &[T], t: &mut Tracer) -> bool {
    T::FLAT != 0
        && T::SCOPES != 0
        && t.flat_run(items.len(), T::FLAT, T::SCOPES, |out| {
            for (v, o) in items.iter().zip(out.chunks_exact_mut(T::FLAT)) {
                v.flat(o);
            }
        })
}

/// Arrays of blocks or registers: element `i` is named `{name}{i}`
/// (`wave3`, `l2_3` when the name ends in `_`).
impl<T: Probe, const N: usize> Probe for [T; N] {
    fn probe(&self, name: &str, t: &mut Tracer) {
        if flat_run(self, t) {
            return;
        }
        for (i, v) in self.iter().enumerate() {
            t.indexed(name, i, |t, n| v.probe(n, t));
        }
    }
    const FLAT: usize = N * T::FLAT;
    const SCOPES: usize = N * T::SCOPES;
    #[inline]
    fn flat(&self, out: &mut [u64]) {
        if T::FLAT != 0 {
            for (v, o) in self.iter().zip(out.chunks_exact_mut(T::FLAT)) {
                v.flat(o);
            }
        }
    }
}

/// A vector of blocks (sized once at construction, like hardware): as an array.
impl<T: Probe> Probe for Vec<T> {
    fn probe(&self, name: &str, t: &mut Tracer) {
        if flat_run(self, t) {
            return;
        }
        for (i, v) in self.iter().enumerate() {
            t.indexed(name, i, |t, n| v.probe(n, t));
        }
    }
}

/// A valid/payload port: `{name}_valid` plus the payload's signals under the
/// scope `name` (the payload's default value while invalid, so that the
/// structure never changes).
impl<T: Probe + Default> Probe for Option<T> {
    fn probe(&self, name: &str, t: &mut Tracer) {
        t.valid_port(name, self.is_some(), |t| match self {
            Some(v) => v.probe(name, t),
            None => T::default().probe(name, t),
        });
    }
    const FLAT: usize = if T::FLAT == 0 { 0 } else { 1 + T::FLAT };
    const SCOPES: usize = T::SCOPES;
    #[inline]
    fn flat(&self, out: &mut [u64]) {
        out[0] = u64::from(self.is_some());
        match self {
            Some(v) => v.flat(&mut out[1..]),
            None => T::default().flat(&mut out[1..]),
        }
    }
}

/// Declares a register or port struct and its [`Probe`] implementation: the
/// struct is a scope named by its owner, each field a signal (or sub-scope)
/// named as the field. Fields marked `@untraced` are state a waveform does not
/// show (bulk storage such as a register file or cache data).
///
/// ```
/// use arbitrary_int::u5;
/// traces::signals! {
///     /// A tiny counter block.
///     #[derive(Clone, Debug, Default)]
///     pub struct Counter {
///         /// The count.
///         pub count: u5,
///         /// Counting is enabled.
///         pub enabled: bool,
///         /// Not shown in waveforms.
///         @untraced
///         pub history: Vec<u32>,
///     }
/// }
/// let c = Counter::default();
/// let mut t = traces::Tracer::names();
/// traces::Probe::probe(&c, "counter", &mut t);
/// assert_eq!(t.declared(), ["counter.count", "counter.enabled"]);
/// ```
#[macro_export]
macro_rules! signals {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $(@$fattr:ident)?
                $fvis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                $(#[$fmeta])*
                $fvis $field: $ty,
            )*
        }
        impl $crate::Probe for $name {
            fn probe(&self, name: &str, t: &mut $crate::Tracer) {
                // Sampling a fixed-shape block: one run of words, compared in bulk.
                if <Self as $crate::Probe>::FLAT != 0
                    && t.flat_scope(
                        <Self as $crate::Probe>::FLAT,
                        <Self as $crate::Probe>::SCOPES,
                        |out| <Self as $crate::Probe>::flat(self, out),
                    )
                {
                    return;
                }
                t.scope(name, |t| {
                    $( $crate::signals!(@field self, t, $field $(, $fattr)?); )*
                });
            }
            const FLAT: usize = {
                let mut n = 0usize;
                let mut fixed = true;
                $( $crate::signals!(@flat_count n, fixed, $ty $(, $fattr)?); )*
                if fixed { n } else { 0 }
            };
            const SCOPES: usize = {
                let mut n = 1usize;
                $( $crate::signals!(@scope_count n, $ty $(, $fattr)?); )*
                n
            };
            #[inline]
            #[allow(unused_assignments, unused_mut, unused_variables)]
            fn flat(&self, out: &mut [u64]) {
                // One length check here lets every field's slice below be
                // checked at compile time.
                let out = &mut out[..<Self as $crate::Probe>::FLAT];
                let mut at = 0usize;
                $( $crate::signals!(@flat_field self, out, at, $field, $ty $(, $fattr)?); )*
            }
        }
    };
    (@field $self:ident, $t:ident, $field:ident, untraced) => {};
    (@field $self:ident, $t:ident, $field:ident) => {
        $crate::Probe::probe(&$self.$field, stringify!($field), $t);
    };
    (@flat_count $n:ident, $fixed:ident, $ty:ty, untraced) => {};
    (@flat_count $n:ident, $fixed:ident, $ty:ty) => {
        if <$ty as $crate::Probe>::FLAT == 0 {
            $fixed = false;
        }
        $n += <$ty as $crate::Probe>::FLAT;
    };
    (@scope_count $n:ident, $ty:ty, untraced) => {};
    (@scope_count $n:ident, $ty:ty) => {
        $n += <$ty as $crate::Probe>::SCOPES;
    };
    (@flat_field $self:ident, $out:ident, $at:ident, $field:ident, $ty:ty, untraced) => {};
    (@flat_field $self:ident, $out:ident, $at:ident, $field:ident, $ty:ty) => {
        let f = <$ty as $crate::Probe>::FLAT;
        $crate::Probe::flat(&$self.$field, &mut $out[$at..$at + f]);
        $at += f;
    };
}
