//! The kernel corpus: OpenCL C sources, Rust CPU references and prebuilt code objects.
#![deny(missing_docs)]
