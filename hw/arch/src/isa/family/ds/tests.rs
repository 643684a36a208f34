//! Unit tests (LLVM-verified cases).
