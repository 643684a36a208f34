//! The clocked RTL-style GPU model implementing arch::Device.
#![deny(missing_docs)]
