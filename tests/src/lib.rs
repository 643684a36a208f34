//! The kernel corpus and the end-to-end tests. The registry (default
//! launches, Rust CPU references, the seeded generator) is the product crate
//! `corpus-ref` (`cosim/corpus-ref/`), re-exported here whole so tests keep
//! naming it `corpus::…`; the kernels' sources and prebuilt code objects are
//! `tests/kernels/`. The end-to-end tests are this crate's `tests/`.
//!
//! ```
//! let k = corpus::find("saxpy").expect("saxpy is registered");
//! assert!(k.check(&k.launch.materialize()).is_err());
//! ```
#![deny(missing_docs)]

pub use corpus_ref::*;
