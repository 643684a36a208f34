//! The corpus test binary: (1) every registered kernel has its source,
//! prebuilt code objects and oracle files, and the code-object metadata
//! agrees with the launch; (2) the CPU references pass sanity checks that
//! would catch a wrong reference, and, where clang-19 is installed, the
//! references agree with the kernel sources compiled and run on the host
//! CPU; (3) where LLVM 19 is installed, the committed objects match a fresh
//! build (`build.sh --check`).

#[path = "corpus/drift.rs"]
mod drift;
#[path = "corpus/host.rs"]
mod host;
#[path = "corpus/references.rs"]
mod references;
#[path = "corpus/structure.rs"]
mod structure;
#[path = "corpus/ubench.rs"]
mod ubench;
#[path = "corpus/work.rs"]
mod work;
