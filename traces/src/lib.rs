//! Signal registry, streaming VCD writer and reader, trace diff.
#![deny(missing_docs)]
