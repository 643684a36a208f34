//! Unit tests of the VOP families (cases verified with llvm-mc-19).
