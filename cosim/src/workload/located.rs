//! Conversion errors at the value's own line and column.
//!
//! serde's `#[serde(try_from = "Raw")]` converts after the raw value has
//! been read, outside the YAML node; serde_norway then marks the error with
//! the start of the enclosing mapping or sequence, so a zero `grid` was
//! reported at `1:1` and one bad argument at the `args:` line. Converting
//! inside the node's own visit (here) gives the error that node's position.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

/// Deserializes a `Raw` and converts it to `T` while the YAML node is
/// current (see the module comment).
pub(crate) fn deserialize<'de, D, Raw, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    Raw: Deserialize<'de>,
    T: TryFrom<Raw, Error = String>,
{
    d.deserialize_any(Convert::<Raw, T>(PhantomData))
}

struct Convert<Raw, T>(PhantomData<(Raw, T)>);

impl<Raw, T> Convert<Raw, T>
where
    T: TryFrom<Raw, Error = String>,
{
    fn finish<E: de::Error>(raw: Result<Raw, E>) -> Result<T, E> {
        T::try_from(raw?).map_err(E::custom)
    }
}

/// Scalars go through their own deserializer so `Raw` sees them as written.
macro_rules! scalar {
    ($($visit:ident: $ty:ty),*) => {$(
        fn $visit<E: de::Error>(self, v: $ty) -> Result<T, E> {
            Self::finish(Raw::deserialize(v.into_deserializer()))
        }
    )*};
}

impl<'de, Raw, T> Visitor<'de> for Convert<Raw, T>
where
    Raw: Deserialize<'de>,
    T: TryFrom<Raw, Error = String>,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a workload value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        Self::finish(Raw::deserialize(MapAccessDeserializer::new(map)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        Self::finish(Raw::deserialize(SeqAccessDeserializer::new(seq)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Self::finish(Raw::deserialize(v.to_string().into_deserializer()))
    }

    scalar!(visit_u64: u64, visit_i64: i64, visit_f64: f64, visit_bool: bool);
}

/// `impl Deserialize for $t` through [`deserialize`] from `$raw`.
macro_rules! located {
    ($t:ty, $raw:ty) => {
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                super::located::deserialize::<D, $raw, $t>(d)
            }
        }
    };
}
pub(crate) use located;
